// The bytes of one row sent from a sweep's rank to rank 0 (docs/sweeps.md).
#include <stdexcept>

#include "sw/sweep/transport.hpp"

namespace orthosim::sw::sweep {

std::string row_message(std::uint64_t point, const std::string& row) {
  std::string message(kRowMessagePointBytes, '\0');
  for (std::size_t b = 0; b < kRowMessagePointBytes; ++b) {
    message[b] = static_cast<char>((point >> (8 * b)) & 0xff);
  }
  return message + row;
}

std::pair<std::uint64_t, std::string> parse_row_message(const std::string& message) {
  if (message.size() < kRowMessagePointBytes) {
    throw std::runtime_error("a sweep row message of " + std::to_string(message.size()) +
                             " bytes, shorter than its point index");
  }
  std::uint64_t point = 0;
  for (std::size_t b = 0; b < kRowMessagePointBytes; ++b) {
    point |= static_cast<std::uint64_t>(static_cast<unsigned char>(message[b])) << (8 * b);
  }
  return {point, message.substr(kRowMessagePointBytes)};
}

}  // namespace orthosim::sw::sweep
