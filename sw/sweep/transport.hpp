// How the ranks of an MPI sweep share work (docs/sweeps.md): rank 0 owns the journal, tells the
// others which points are already finished, and receives every row the others produce. The
// interface keeps MPI in one file (mpi_transport.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace orthosim::sw::sweep {

class Transport {
 public:
  virtual ~Transport() = default;
  [[nodiscard]] virtual int rank() const = 0;
  [[nodiscard]] virtual int ranks() const = 0;
  /// Rank 0 passes the finished points; every rank gets rank 0's list back.
  virtual std::vector<std::uint64_t> share(const std::vector<std::uint64_t>& finished) = 0;
  /// A rank other than 0 hands rank 0 the row of one point.
  virtual void send_row(std::uint64_t point, const std::string& row) = 0;
  /// Rank 0: a row another rank sent, if one has arrived (with `block`, waits for one).
  virtual std::optional<std::pair<std::uint64_t, std::string>> receive_row(bool block) = 0;
};

/// The bytes of a row another rank sends rank 0, one message per row: the point's index in the
/// first eight bytes, least significant first, then the CSV line.
constexpr std::size_t kRowMessagePointBytes = 8;
[[nodiscard]] std::string row_message(std::uint64_t point, const std::string& row);
/// The point and row of a message row_message() made. Throws std::runtime_error for a message
/// shorter than the point's bytes.
[[nodiscard]] std::pair<std::uint64_t, std::string> parse_row_message(const std::string& message);

/// Initializes MPI (the process must have been started by mpirun) and finalizes it when the
/// transport is destroyed.
std::unique_ptr<Transport> make_mpi_transport();
/// Ends every rank with `code` after an error on this one (MPI_Abort).
[[noreturn]] void abort_ranks(int code);

}  // namespace orthosim::sw::sweep
