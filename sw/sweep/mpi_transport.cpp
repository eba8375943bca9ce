// The one file that speaks MPI (Open MPI from Debian): the transport of `orthosim sweep --mpi`.
#include <mpi.h>

#include <cstdlib>
#include <stdexcept>

#include "sw/sweep/transport.hpp"

namespace orthosim::sw::sweep {

namespace {

constexpr int kRowTag = 1;

class MpiTransport final : public Transport {
 public:
  MpiTransport() {
    int initialized = 0;
    MPI_Initialized(&initialized);
    if (!initialized && MPI_Init(nullptr, nullptr) != MPI_SUCCESS) {
      throw std::runtime_error("MPI_Init failed (start the sweep with mpirun)");
    }
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &ranks_);
  }
  ~MpiTransport() override { MPI_Finalize(); }

  int rank() const override { return rank_; }
  int ranks() const override { return ranks_; }

  std::vector<std::uint64_t> share(const std::vector<std::uint64_t>& finished) override {
    std::uint64_t count = finished.size();
    MPI_Bcast(&count, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
    std::vector<std::uint64_t> all = finished;
    all.resize(count);
    MPI_Bcast(all.data(), static_cast<int>(count), MPI_UINT64_T, 0, MPI_COMM_WORLD);
    return all;
  }

  void send_row(std::uint64_t point, const std::string& row) override {
    const std::string message = row_message(point, row);
    MPI_Send(message.data(), static_cast<int>(message.size()), MPI_CHAR, 0, kRowTag,
             MPI_COMM_WORLD);
  }

  std::optional<std::pair<std::uint64_t, std::string>> receive_row(bool block) override {
    MPI_Status status;
    int arrived = 1;
    if (block) {
      MPI_Probe(MPI_ANY_SOURCE, kRowTag, MPI_COMM_WORLD, &status);
    } else {
      MPI_Iprobe(MPI_ANY_SOURCE, kRowTag, MPI_COMM_WORLD, &arrived, &status);
    }
    if (!arrived) {
      return std::nullopt;
    }
    int size = 0;
    MPI_Get_count(&status, MPI_CHAR, &size);
    std::string message(static_cast<std::size_t>(size), '\0');
    MPI_Recv(message.data(), size, MPI_CHAR, status.MPI_SOURCE, kRowTag, MPI_COMM_WORLD,
             MPI_STATUS_IGNORE);
    return parse_row_message(message);
  }

 private:
  int rank_ = 0;
  int ranks_ = 1;
};

}  // namespace

std::unique_ptr<Transport> make_mpi_transport() { return std::make_unique<MpiTransport>(); }

void abort_ranks(int code) {
  MPI_Abort(MPI_COMM_WORLD, code);
  std::abort();  // MPI_Abort does not return; this tells the compiler so
}

}  // namespace orthosim::sw::sweep
