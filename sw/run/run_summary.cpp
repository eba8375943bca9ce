#include "sw/run/run_summary.hpp"

#include <sstream>

namespace orthosim::sw {

std::string CosimMismatch::to_string() const {
  std::ostringstream s;
  s << "cosim mismatch at cycle " << cycle << " in " << instance << ": " << signal << " model 0x"
    << std::hex << model << " rtl 0x" << rtl;
  return s.str();
}

}  // namespace orthosim::sw
