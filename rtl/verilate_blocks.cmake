# The verilated blocks, verilated and compiled by this build (included by rtl/CMakeLists.txt
# unless ORTHOSIM_REUSE_FROM names another build whose blocks it links instead).
# verilate() lists a model's generated files at configure time from its last verilation, and
# runs Verilator there only when the model's command line changed, not when its sources did. After
# an RTL edit that makes Verilator split a model into other files, the build then compiled the
# stale files of the old list (and failed on them, their members gone), in every build until the
# files were removed. So an edit of the RTL or its configuration files configures again
# (CMAKE_CONFIGURE_DEPENDS below), and orthosim_verilate() makes that configure verilate again
# every model whose sources are newer than its last verilation (its PREFIX.cmake), by removing
# verilate()'s record of the last command line.
file(GLOB verilated_inputs CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/*.sv
     ${CMAKE_CURRENT_SOURCE_DIR}/*.vlt ${CMAKE_CURRENT_SOURCE_DIR}/*.vc
     ${CMAKE_CURRENT_SOURCE_DIR}/bridge/*.vlt)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${verilated_inputs})
function(orthosim_verilate target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "PREFIX" "SOURCES")
  set(vdir ${CMAKE_CURRENT_BINARY_DIR}/CMakeFiles/${target}.dir/${arg_PREFIX}.dir)
  if(EXISTS ${vdir}/${arg_PREFIX}.cmake)
    foreach(input IN LISTS arg_SOURCES ITEMS rtl.vc orthosim.vlt)
      if(${CMAKE_CURRENT_SOURCE_DIR}/${input} IS_NEWER_THAN ${vdir}/${arg_PREFIX}.cmake)
        file(REMOVE ${vdir}/verilator_args.txt)
        break()
      endif()
    endforeach()
  endif()
  verilate(${target} ${ARGN})
endfunction()
add_library(orthosim_rtl_verilated STATIC)
add_library(orthosim::rtl_verilated ALIAS orthosim_rtl_verilated)
# The multiprocessor's blocks at every n the systems run with the RTL, at the sizes of
# limits.cmake. bridge/backdoor.vlt makes the index manipulator's memories reachable for
# the loads that take no time in the model (index sets before the run, LoadBuffer, StoreBuffer).
# C++ models, not SystemC modules: their bridges (bridge/*_rtl.cpp) set the ports as plain members
# and evaluate a model only when its inputs changed or at its clock edge, which sc::RtlDatapath
# and sc::RtlMemory take by a call instead of through a clock signal and delta cycles
# (docs/performance.md, "The verilated datapath blocks").
# Paths reach Verilator relative to this folder (verilate() runs it here): the generated code then
# names `router.sv`, not a checkout's absolute path, so it is byte-identical in every clone and the
# compiler cache (scripts/test.sh) reuses it across checkouts and CI runs.
# Verilator's own optimisation defaults for generated code: -Os for the per-cycle code, none for
# the code run once at start (__Slow files). They compile in about half the time of -O2 and
# simulate about as fast (measured on the router tests: compile of the largest files 8.5 s -> 5 s
# (-Os) and 8 s -> 3.4 s (-O0, __Slow); run time within the noise of a shared machine). The
# target's own level is the slow code's -O0, so that the slow files, which take no per-file
# option, share the target's precompiled header (orthosim_verilated_pch, rtl/CMakeLists.txt);
# Verilator's runtime (OPT_GLOBAL) keeps the -O2 it had.
set(rtl_opt OPT_FAST -Os OPT_GLOBAL -O2)
target_compile_options(orthosim_rtl_verilated PRIVATE -O0)
set(rtl_common_args -f rtl.vc orthosim.vlt
                    -GL=${ORTHOSIM_RTL_BUFFER_WORDS} -GS=${ORTHOSIM_RTL_INDEX_SETS}
                    -GW=${ORTHOSIM_RTL_WORD_BITS})
foreach(n IN LISTS ORTHOSIM_RTL_N)
  orthosim_verilate(orthosim_rtl_verilated TRACE_FST ${rtl_opt}
           SOURCES index_manipulator.sv
                   bridge/backdoor.vlt
           TOP_MODULE index_manipulator PREFIX Vindex_manipulator_n${n}
           VERILATOR_ARGS ${rtl_common_args} -GN=${n})
  orthosim_verilate(orthosim_rtl_verilated TRACE_FST ${rtl_opt}
           SOURCES bus_controller.sv
           TOP_MODULE bus_controller PREFIX Vbus_controller_n${n}
           VERILATOR_ARGS ${rtl_common_args} -GN=${n} -GDEPTH=${ORTHOSIM_RTL_MODULE_WORDS}
                          -GTW=${ORTHOSIM_RTL_TIMING_BITS})
  # The omp's n x n modules with their arbiter (memory=rtl|cosim);
  # bridge/module_array.vlt makes the storage reachable for clearing it before a program.
  orthosim_verilate(orthosim_rtl_verilated TRACE_FST ${rtl_opt}
           SOURCES module_array.sv
                   fcfs_arbiter.sv
                   bridge/module_array.vlt
           TOP_MODULE module_array PREFIX Vmodule_array_n${n}
           VERILATOR_ARGS -f rtl.vc orthosim.vlt
                          -GW=${ORTHOSIM_RTL_WORD_BITS} -GN=${n} -GDEPTH=${ORTHOSIM_RTL_MODULE_WORDS})
endforeach()
# The whole multiprocessor as one C++ model per organisation and n (rtl/multiprocessor.sv; ARCH 0
# omp, 1 crossbar, 2 bus), stepped by bridge/multiprocessor_rtl.cpp; bridge/multiprocessor.vlt
# opens its memories to the loads that take no time, so its host ports are tied off (HOST=0). Verilator specialises each controller's code
# per instance (its inputs come from its own processor), so a model is about n times a
# controller's code: 1 MB of C++ at n = 4, 10 MB at n = 16 (docs/rtl.md, "The multiprocessor as
# one unit", for the compile cost and why only these pairs).
set(mp_arch_omp 0)
set(mp_arch_crossbar 1)
set(mp_arch_bus 2)
foreach(model IN LISTS ORTHOSIM_RTL_MP_MODELS)
  string(REPLACE ":" ";" arch_n ${model})
  list(GET arch_n 0 arch)
  list(GET arch_n 1 n)
  orthosim_verilate(orthosim_rtl_verilated TRACE_FST ${rtl_opt}
           SOURCES multiprocessor.sv processor.sv bus_controller.sv index_manipulator.sv
                   module_array.sv crossbar_array.sv fcfs_arbiter.sv sync_unit.sv
                   bridge/multiprocessor.vlt
           TOP_MODULE multiprocessor PREFIX Vmultiprocessor_${arch}_n${n}
           VERILATOR_ARGS ${rtl_common_args} -GARCH=${mp_arch_${arch}} -GN=${n} -GHOST=0
                          -GDEPTH=${ORTHOSIM_RTL_MODULE_WORDS} -GTW=${ORTHOSIM_RTL_TIMING_BITS}
                          -GLOCAL=${ORTHOSIM_RTL_LOCAL_WORDS}
                          -GIMEM=${ORTHOSIM_RTL_INSTRUCTION_WORDS}
                          -GCYW=${ORTHOSIM_RTL_COMPUTE_BITS} -GSTW=${ORTHOSIM_RTL_STEP_BITS}
                          -GLPW=${ORTHOSIM_RTL_LOCAL_PORT_WORDS}
                          --output-split 20000)
endforeach()
# The router of every mesh, torus and hypercube within its maxima (limits.cmake: ports, virtual
# channels, flits per buffer): the topology is run-time configuration, so one verilation serves
# them all (docs/rtl.md, router; rtl/bridge/router_network_rtl.hpp checks the limits). Its
# functions are not split (no --output-split-cfuncs): split into functions of 40 statements, its
# combinational logic was about 900 calls per evaluation, and the verilated network ran at half
# the speed, for 45 instead of 56 CPU-s of compiling (docs/performance.md, "The verilated network,
# round 2"; the split was for the asan-ubsan preset, which now links these objects uninstrumented).
# A C++ model, not a SystemC module: the network
# (bridge/router_network_rtl.cpp) sets its ports and evaluates it directly, once per cycle and
# router plus the ready chain's re-evaluations, instead of through signals and delta cycles.
# Two verilations: at PMAX ports (Vrouter) and at the fewer ports of 2-D grids (Vrouter_small,
# limits.cmake), which the bridge chooses per network.
# In a release build (the benchmarks') the router's per-cycle code is compiled at -O2: the
# routers are nearly all of the verilated network's time, and -O2 runs them about 1.2 times as fast
# as -Os (bench/rtl_speed's torus: 29 500 -> 36 000 cycles/s, 20-21 -> 16.5-19 times the model's
# time; docs/performance.md, "The verilated network, round 4"). The other builds, CI's among them,
# keep -Os for its shorter compile.
if(CMAKE_BUILD_TYPE STREQUAL "Release")
  set(router_opt OPT_FAST -O2 OPT_GLOBAL -O2)
else()
  set(router_opt ${rtl_opt})
endif()
foreach(ports_prefix IN ITEMS "${ORTHOSIM_RTL_ROUTER_PORTS};Vrouter"
                              "${ORTHOSIM_RTL_ROUTER_SMALL_PORTS};Vrouter_small")
  list(GET ports_prefix 0 ports)
  list(GET ports_prefix 1 prefix)
  orthosim_verilate(orthosim_rtl_verilated TRACE_FST ${router_opt}
           SOURCES router.sv
           TOP_MODULE router PREFIX ${prefix}
           VERILATOR_ARGS -f rtl.vc orthosim.vlt
                          -GPMAX=${ports} -GVMAX=${ORTHOSIM_RTL_ROUTER_VCS}
                          -GDMAX=${ORTHOSIM_RTL_ROUTER_DEPTH} --output-split 4000)
endforeach()
# The network interface of every node, one verilation for every network like the router (PMAX
# injection and ejection channels; the network uses those of its router's ports). A C++ model
# stepped with the routers (bridge/network_interfaces_rtl.cpp). Its node memory is addressed by
# queue slot and word: AW = 12 word-index bits (MWW) + 5 slot bits (PMAX x QD = 24 messages).
orthosim_verilate(orthosim_rtl_verilated TRACE_FST ${rtl_opt}
         SOURCES network_interface.sv
         TOP_MODULE network_interface PREFIX Vnetwork_interface
         VERILATOR_ARGS -f rtl.vc orthosim.vlt
                        -GPMAX=${ORTHOSIM_RTL_ROUTER_PORTS} -GQD=${ORTHOSIM_RTL_NI_QUEUE}
                        -GRQ=${ORTHOSIM_RTL_NI_REASSEMBLY} -GAW=17)
target_link_libraries(orthosim_rtl_verilated PUBLIC PkgConfig::SYSTEMC)
# Generated code is checked by the co-simulation against the models, not by the sanitizers: under
# the asan-ubsan preset its instrumented build (the router's unrolled arbitration above all) takes
# minutes per file. Our code around it, the bridges included, stays instrumented.
target_compile_options(orthosim_rtl_verilated PRIVATE -fno-sanitize=all)
# Users of the generated code see Verilator's headers as system headers: our warning set is for
# our code, not theirs.
# verilate() gives the build tree's folders; installed, the library is linked, never compiled
# against (only the bridges include its headers).
get_target_property(verilated_includes orthosim_rtl_verilated INTERFACE_INCLUDE_DIRECTORIES)
set_target_properties(orthosim_rtl_verilated PROPERTIES
                      INTERFACE_INCLUDE_DIRECTORIES "$<BUILD_INTERFACE:${verilated_includes}>"
                      INTERFACE_SYSTEM_INCLUDE_DIRECTORIES "$<BUILD_INTERFACE:${verilated_includes}>")
orthosim_install_library(orthosim_rtl_verilated rtl_verilated)
