// Unit tests of the output-path mechanism (sw/core/output_file.hpp): a regular file is written as
// PATH.partial and renamed at commit; a character device, a FIFO or a symbolic link is written
// through as a stream and stays what it was; directories, sockets, block devices, empty paths and
// missing folders are refused with the reason; folders created for outputs go again when empty.
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/un.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "sw/core/output_file.hpp"
#include "tests/support/special_files.hpp"

namespace {

namespace fs = std::filesystem;
using orthosim::sw::check_output_folder;
using orthosim::sw::classify_output;
using orthosim::sw::CreatedFolders;
using orthosim::sw::OutputFile;
using orthosim::sw::OutputMode;
using orthosim::sw::OutputNeeds;
using orthosim::sw::OutputPathError;
using orthosim::testing_support::FifoReader;
using orthosim::testing_support::is_null_device;
using orthosim::testing_support::make_full_device;
using orthosim::testing_support::make_null_device;

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

class OutputFileTest : public testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("orthosim_output_file_" +
            std::string(testing::UnitTest::GetInstance()->current_test_info()->name()) + "_" +
            std::to_string(getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  [[nodiscard]] std::string path(const std::string& name) const { return (dir_ / name).string(); }

  /// The reason classify_output gives for refusing `p`, or "" if it accepts it.
  static std::string refusal(const std::string& p, OutputNeeds needs = {}) {
    try {
      static_cast<void>(classify_output(p, needs));
    } catch (const OutputPathError& e) {
      return e.what();
    }
    return "";
  }

  fs::path dir_;
};

TEST_F(OutputFileTest, ARegularFileIsWrittenAsPartialAndReplacesTheOlderOneAtCommit) {
  const std::string file = path("w.txt");
  std::ofstream(file) << "older\n";
  OutputFile out(file);
  EXPECT_EQ(out.mode(), OutputMode::Replace);
  out.out() << "newer\n";
  out.out().flush();
  EXPECT_EQ(slurp(file), "older\n");  // untouched until the commit
  EXPECT_EQ(slurp(file + ".partial"), "newer\n");
  out.commit();
  EXPECT_EQ(slurp(file), "newer\n");
  EXPECT_FALSE(fs::exists(file + ".partial"));
}

TEST_F(OutputFileTest, AnUncommittedFileLeavesTheOlderOneAndNoPartial) {
  const std::string file = path("w.txt");
  std::ofstream(file) << "older\n";
  {
    OutputFile out(file);
    out.out() << "abandoned\n";
  }
  EXPECT_EQ(slurp(file), "older\n");
  EXPECT_FALSE(fs::exists(file + ".partial"));
  {
    OutputFile kept(path("k.txt"));
    kept.out() << "for inspection\n";
    kept.keep_partial();
  }
  EXPECT_EQ(slurp(path("k.txt.partial")), "for inspection\n");
  EXPECT_FALSE(fs::exists(path("k.txt")));
}

// A regular PATH.partial is what an interrupted run left: it is overwritten, whether PATH is
// there or not, and goes at the commit.
TEST_F(OutputFileTest, AnInterruptedRunsPartialIsOverwritten) {
  std::ofstream(dir_ / "old.txt") << "older\n";
  for (const std::string name : {"old.txt", "new.txt"}) {
    const std::string file = path(name);
    std::ofstream(file + ".partial") << "interrupted\n";
    OutputFile out(file);
    EXPECT_EQ(out.mode(), OutputMode::Replace) << name;
    out.out() << "complete\n";
    out.commit();
    EXPECT_EQ(slurp(file), "complete\n") << name;
    EXPECT_FALSE(fs::exists(file + ".partial")) << name;
  }
}

TEST_F(OutputFileTest, ACharacterDeviceIsStreamedAndNeverRemovedOrRenamed) {
  const fs::path device = dir_ / "null";
  if (const std::string why = make_null_device(device); !why.empty()) {
    GTEST_SKIP() << why;
  }
  EXPECT_EQ(classify_output(device.string()), OutputMode::InPlace);
  {
    OutputFile out(device.string());
    out.out() << "into the device\n";
    out.commit();
  }
  { OutputFile abandoned(device.string()); }
  EXPECT_TRUE(is_null_device(device));
  EXPECT_FALSE(fs::exists(device.string() + ".partial"));
}

TEST_F(OutputFileTest, AFifoIsStreamedToItsReaderAndStaysAFifo) {
  const fs::path fifo = dir_ / "pipe";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0) << std::strerror(errno);
  FifoReader reader(fifo);
  {
    OutputFile out(fifo.string());
    EXPECT_EQ(out.mode(), OutputMode::InPlace);
    out.out() << "line 1\nline 2\n";
    out.commit();
  }
  EXPECT_EQ(reader.finish(), "line 1\nline 2\n");
  EXPECT_TRUE(fs::is_fifo(fs::symlink_status(fifo)));
  EXPECT_FALSE(fs::exists(fifo.string() + ".partial"));
}

TEST_F(OutputFileTest, ASymbolicLinkIsWrittenThroughAndStaysALink) {
  const fs::path target = dir_ / "target.txt";
  std::ofstream(target) << "older\n";
  fs::create_symlink(target, dir_ / "link.txt");
  OutputFile out(path("link.txt"));
  EXPECT_EQ(out.mode(), OutputMode::InPlace);
  out.out() << "through\n";
  out.commit();
  EXPECT_TRUE(fs::is_symlink(dir_ / "link.txt"));
  EXPECT_EQ(slurp(target), "through\n");
  EXPECT_FALSE(fs::exists(path("link.txt.partial")));
}

TEST_F(OutputFileTest, WhatCannotBeAnOutputIsRefusedWithTheReasonAndLeftAlone) {
  fs::create_directories(dir_ / "empty");
  fs::create_directories(dir_ / "full");
  std::ofstream(dir_ / "full" / "keep.txt") << "kept\n";
  std::ofstream(dir_ / "plain") << "a file\n";
  fs::create_directories(dir_ / "busy.txt.partial");
  fs::create_symlink(dir_ / "full", dir_ / "to_folder");
  const int sock = ::socket(AF_UNIX, SOCK_STREAM, 0);
  ASSERT_GE(sock, 0);
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  const std::string socket_path = path("sock");
  ASSERT_LT(socket_path.size(), sizeof address.sun_path);
  std::strncpy(address.sun_path, socket_path.c_str(), sizeof address.sun_path - 1);
  ASSERT_EQ(::bind(sock, reinterpret_cast<const sockaddr*>(&address),
                   static_cast<socklen_t>(sizeof address)),
            0);
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"", "'' (an empty path)"},
      {path("empty"), "'" + path("empty") + "' (a directory)"},
      {path("full"), "'" + path("full") + "' (a directory)"},
      {path("to_folder"), "(a symbolic link to a directory)"},
      {path("sock"), "(a socket)"},
      {path("new") + "/", "(a folder name, not a file name)"},
      {path("missing/w.txt"), "(its folder '" + path("missing") + "' does not exist)"},
      {path("plain/w.txt"), "('" + path("plain") + "' is a regular file, not a folder)"},
      {path("busy.txt"), "('" + path("busy.txt.partial") + "' is in the way: a directory)"},
  };
  for (const auto& [p, reason] : cases) {
    const std::string why = refusal(p);
    EXPECT_NE(why.find(reason), std::string::npos) << p << ": " << why;
    EXPECT_THROW(OutputFile{p}, OutputPathError) << p;
  }
  ::close(sock);
  EXPECT_TRUE(fs::is_empty(dir_ / "empty"));
  EXPECT_EQ(slurp(dir_ / "full" / "keep.txt"), "kept\n");
  EXPECT_EQ(slurp(dir_ / "plain"), "a file\n");
  EXPECT_TRUE(fs::is_directory(dir_ / "busy.txt.partial"));
  EXPECT_TRUE(fs::is_socket(fs::symlink_status(dir_ / "sock")));
  EXPECT_FALSE(fs::exists(dir_ / "missing"));
  EXPECT_FALSE(fs::exists(dir_ / "empty.partial"));
  // A missing folder is fine where it will be created; one below a file never is.
  OutputNeeds creating;
  creating.may_create_folder = true;
  EXPECT_EQ(refusal(path("missing/deeper/w.txt"), creating), "");
  EXPECT_NE(refusal(path("plain/deeper/w.txt"), creating).find("is a regular file, not a folder"),
            std::string::npos);
  EXPECT_FALSE(fs::exists(dir_ / "missing"));
  // Folders for outputs: an existing or creatable folder, not a file.
  EXPECT_NO_THROW(check_output_folder(path("full")));
  EXPECT_NO_THROW(check_output_folder(path("missing/plots")));
  EXPECT_THROW(check_output_folder(path("plain")), OutputPathError);
  EXPECT_THROW(check_output_folder(""), OutputPathError);
}

TEST_F(OutputFileTest, ABlockDeviceIsRefused) {
  const fs::path block = dir_ / "block";
  if (::mknod(block.c_str(), S_IFBLK | 0600, makedev(7, 0)) != 0) {
    GTEST_SKIP() << "mknod " << block << " b 7 0 failed (" << std::strerror(errno)
                 << "): block-device cases need root (CI runs as root)";
  }
  EXPECT_NE(refusal(block.string()).find("(a block device)"), std::string::npos);
  EXPECT_TRUE(fs::is_block_file(fs::symlink_status(block)));
}

TEST_F(OutputFileTest, ASeekableOutputRefusesDevicesAndFifos) {
  const fs::path fifo = dir_ / "pipe";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0) << std::strerror(errno);
  OutputNeeds seekable;
  seekable.seekable = true;
  EXPECT_NE(refusal(fifo.string(), seekable).find("(a FIFO: this output is written with seeks"),
            std::string::npos);
  EXPECT_EQ(refusal(fifo.string()), "");
  EXPECT_EQ(refusal(path("new.fst"), seekable), "");
  const fs::path device = dir_ / "null";
  if (const std::string why = make_null_device(device); !why.empty()) {
    GTEST_SKIP() << why;
  }
  EXPECT_NE(refusal(device.string(), seekable).find("(a character device: "), std::string::npos);
  EXPECT_TRUE(is_null_device(device));
}

// Bytes that could not be written fail the commit: a device with /dev/full's numbers refuses
// every write, which the stream reports when it is closed and flushed.
TEST_F(OutputFileTest, ACommitOfBytesThatCouldNotBeWrittenFails) {
  const fs::path device = dir_ / "full";
  if (const std::string why = make_full_device(device); !why.empty()) {
    GTEST_SKIP() << why;
  }
  OutputFile out(device.string());
  out.out() << "more than the device takes\n";
  try {
    out.commit();
    ADD_FAILURE() << "a failed write committed";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()), "cannot write " + device.string());
  }
}

// A symbolic link to a character device is the device for the writer: streamed through, refused
// where the writer seeks, and left a link to the device.
TEST_F(OutputFileTest, ASymbolicLinkToACharacterDeviceIsStreamedThrough) {
  const fs::path device = dir_ / "null";
  if (const std::string why = make_null_device(device); !why.empty()) {
    GTEST_SKIP() << why;
  }
  fs::create_symlink(device, dir_ / "to_null");
  {
    OutputFile out(path("to_null"));
    EXPECT_EQ(out.mode(), OutputMode::InPlace);
    out.out() << "into the device\n";
    out.commit();
  }
  OutputNeeds seekable;
  seekable.seekable = true;
  EXPECT_NE(refusal(path("to_null"), seekable).find("(a character device: "), std::string::npos);
  EXPECT_TRUE(fs::is_symlink(dir_ / "to_null"));
  EXPECT_TRUE(is_null_device(device));
}

TEST_F(OutputFileTest, CommitLeavesAPathThatBecameADirectoryAlone) {
  const std::string file = path("w.txt");
  OutputFile out(file);
  out.out() << "text\n";
  fs::create_directories(file);
  EXPECT_THROW(out.commit(), std::runtime_error);
  EXPECT_TRUE(fs::is_directory(file));
}

// A symbolic link is written through when it points at a file, at nothing yet or at a FIFO; one
// to a device or FIFO is refused where the writer seeks, as the device or FIFO itself is.
TEST_F(OutputFileTest, ASymbolicLinkIsClassifiedByWhatItPointsAt) {
  fs::create_symlink(dir_ / "nothing_yet.txt", dir_ / "dangling");
  EXPECT_EQ(classify_output(path("dangling")), OutputMode::InPlace);
  const fs::path fifo = dir_ / "pipe";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0) << std::strerror(errno);
  fs::create_symlink(fifo, dir_ / "to_pipe");
  EXPECT_EQ(classify_output(path("to_pipe")), OutputMode::InPlace);
  OutputNeeds seekable;
  seekable.seekable = true;
  EXPECT_NE(refusal(path("to_pipe"), seekable).find("(a FIFO: this output is written with seeks"),
            std::string::npos);
  EXPECT_FALSE(fs::exists(dir_ / "nothing_yet.txt"));  // classifying creates nothing
}

// PATH.partial that is not a regular file is in the way also when PATH exists, and a symbolic
// link there is not followed: the run would write through it and rename it over PATH.
TEST_F(OutputFileTest, APartialThatIsNoRegularFileIsInTheWayOfAnExistingFileToo) {
  std::ofstream(dir_ / "old.txt") << "older\n";
  fs::create_directories(dir_ / "old.txt.partial");
  EXPECT_NE(refusal(path("old.txt")).find("is in the way: a directory"), std::string::npos);
  std::ofstream(dir_ / "elsewhere.txt") << "not ours\n";
  fs::create_symlink(dir_ / "elsewhere.txt", dir_ / "new.txt.partial");
  EXPECT_NE(refusal(path("new.txt")).find("is in the way: a symbolic link"), std::string::npos);
  EXPECT_EQ(slurp(dir_ / "elsewhere.txt"), "not ours\n");
}

// The root folder is a folder: climbing stops there.
TEST_F(OutputFileTest, TheRootIsAnOutputFolder) {
  EXPECT_NO_THROW(check_output_folder("/"));
  EXPECT_NO_THROW(check_output_folder("//"));
}

// A writer that opens the file itself gets PATH.partial; commit puts what it wrote in place.
TEST_F(OutputFileTest, AHandedOverFileIsPutInPlaceAtCommit) {
  OutputFile out(path("w.fst"));
  const std::string target = out.hand_over();
  EXPECT_EQ(target, path("w.fst.partial"));
  std::ofstream(target) << "written by another writer\n";
  out.commit();
  EXPECT_EQ(slurp(dir_ / "w.fst"), "written by another writer\n");
  EXPECT_FALSE(fs::exists(target));
}

// A PATH that became a symbolic link before commit is not replaced, and an uncommitted PATH.partial
// that became something else than a file is not removed: neither is the run's own any more.
TEST_F(OutputFileTest, WhatBecameSomethingElseMeanwhileIsLeftAlone) {
  std::ofstream(dir_ / "elsewhere.txt") << "not ours\n";
  {
    OutputFile out(path("w.txt"));
    out.out() << "text\n";
    fs::create_symlink(dir_ / "elsewhere.txt", dir_ / "w.txt");
    EXPECT_THROW(out.commit(), std::runtime_error);
    EXPECT_TRUE(fs::is_symlink(dir_ / "w.txt"));
    fs::remove(dir_ / "w.txt.partial");
    fs::create_symlink(dir_ / "elsewhere.txt", dir_ / "w.txt.partial");
  }
  EXPECT_TRUE(fs::is_symlink(dir_ / "w.txt.partial"));
  EXPECT_EQ(slurp(dir_ / "elsewhere.txt"), "not ours\n");
  // A link written through that became a regular file is not the run's to remove either.
  fs::create_symlink(dir_ / "elsewhere.txt", dir_ / "link.txt");
  {
    OutputFile through(path("link.txt"));
    ASSERT_EQ(through.mode(), OutputMode::InPlace);
    fs::remove(dir_ / "link.txt");
    std::ofstream(dir_ / "link.txt") << "someone else's\n";
  }
  EXPECT_EQ(slurp(dir_ / "link.txt"), "someone else's\n");
}

TEST_F(OutputFileTest, CreatedFoldersRemovesOnlyItsOwnFoldersThatStayedEmpty) {
  fs::create_directories(dir_ / "mine_before");
  {
    CreatedFolders folders;
    folders.create(path("a/b/c"));
    folders.create_folder_of(path("kept/w.txt"));
    folders.create(path("mine_before/x"));
    EXPECT_TRUE(fs::is_directory(dir_ / "a" / "b" / "c"));
    std::ofstream(dir_ / "kept" / "w.txt") << "written\n";
    EXPECT_THROW(folders.create(path("kept/w.txt/below")), OutputPathError);
  }
  EXPECT_FALSE(fs::exists(dir_ / "a"));
  EXPECT_EQ(slurp(dir_ / "kept" / "w.txt"), "written\n");
  EXPECT_TRUE(fs::is_directory(dir_ / "mine_before"));
  EXPECT_FALSE(fs::exists(dir_ / "mine_before" / "x"));
}

// A symbolic link to a folder is a folder to create in: what is missing below it is created in
// the folder it points at, and the link is no folder of the run's to remove.
TEST_F(OutputFileTest, CreatedFoldersCreateBelowASymbolicLinkToAFolder) {
  fs::create_directories(dir_ / "real");
  fs::create_directory_symlink(dir_ / "real", dir_ / "link");
  {
    CreatedFolders folders;
    folders.create(path("link/a/b"));
    EXPECT_TRUE(fs::is_directory(dir_ / "real" / "a" / "b"));
    std::ofstream(dir_ / "real" / "a" / "b" / "w.txt") << "written\n";
  }
  EXPECT_TRUE(fs::is_symlink(dir_ / "link"));
  EXPECT_EQ(slurp(dir_ / "real" / "a" / "b" / "w.txt"), "written\n");
}

}  // namespace
