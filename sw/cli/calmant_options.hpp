// The options `calmant` and `gen calmant` share: the line or mesh a CC-cube runs on
// ([CALMANT] section 2.1: 2^(d/c) nodes per axis, c = 1, 2, 3) and the pipeline's costs.
#pragma once

#include <boost/program_options.hpp>

#include "sw/calmant/calmant.hpp"

namespace orthosim::sw::cli {

/// --mesh KxK | KxKxK or --line K (K a power of two >= 2; exactly one of them): the CC-cube the
/// line or mesh holds. InputError naming the option otherwise.
[[nodiscard]] calmant::CubeOnMesh calmant_cube(const boost::program_options::variables_map& vm);

/// --compute and --barrier (cycles per iteration's computation and barrier, default 0) into `p`.
/// InputError naming the option for a value that is not a count up to the cost limit.
void read_pipeline_costs(const boost::program_options::variables_map& vm,
                         calmant::PipelineProgram& p);

/// The options of calmant_cube, for a command's options description.
[[nodiscard]] boost::program_options::options_description calmant_mesh_options();

}  // namespace orthosim::sw::cli
