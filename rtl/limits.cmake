# The RTL's sizes, in one place: the verilate() parameters (rtl/CMakeLists.txt) and the C++ that
# checks a configuration against them (rtl/limits.hpp, generated from limits.hpp.in: the bridges
# and sc::validate_rtl) both read these. docs/rtl.md, "Parameterisations".
#
# The multiprocessor's blocks, at every n the systems run with the RTL, sized to SystemConfig's
# defaults so that default configurations run.
set(ORTHOSIM_RTL_N 2 4 8 16)          # processors
set(ORTHOSIM_RTL_BUFFER_WORDS 256)    # L: words per data buffer, the most vectors of an access
set(ORTHOSIM_RTL_INDEX_SETS 512)      # S: index sets in the index memory
set(ORTHOSIM_RTL_MODULE_WORDS 4096)   # DEPTH: words per memory module
set(ORTHOSIM_RTL_WORD_BITS 32)        # W
set(ORTHOSIM_RTL_TIMING_BITS 16)      # TW: bits of each timing register (alpha, beta, tau, gamma)
# The router of every mesh, torus and hypercube within its maxima.
set(ORTHOSIM_RTL_ROUTER_PORTS 6)      # PMAX: network ports
# A second verilation of the router for the networks of at most this many ports (2-D meshes and
# tori, rings, hypercubes up to d = 4): about half the arbitration logic per evaluation of PMAX 6
# (docs/performance.md, "The verilated network, round 2").
set(ORTHOSIM_RTL_ROUTER_SMALL_PORTS 4)
set(ORTHOSIM_RTL_ROUTER_VCS 2)        # VMAX: virtual channels
set(ORTHOSIM_RTL_ROUTER_DEPTH 4)      # DMAX: flits per virtual channel buffer
# The network interface of every node (network_interface.sv): one injection and one ejection
# channel per router port (PMAX above), messages queued per injection channel and messages being
# reassembled at once. Its flit fields fit the router's 64 data bits: 8-bit tags (256 messages in
# flight to one node), 12-bit word indices (messages of up to 4095 words).
set(ORTHOSIM_RTL_NI_QUEUE 4)          # QD: messages queued per injection channel
set(ORTHOSIM_RTL_NI_REASSEMBLY 64)    # RQ: messages being reassembled at once per node
# The whole multiprocessor as one verilated unit (rtl/multiprocessor.sv, stepped by
# rtl/bridge/multiprocessor_rtl.hpp): the (organisation, n) pairs verilated, at the sizes above
# and these. The user's choice (cmake -DORTHOSIM_RTL_MP_MODELS="omp:4;crossbar:8"): each pair is a
# model of its own whose compile cost grows with n (docs/rtl.md, "The multiprocessor as one
# unit"). The default: n = 4 (the CLI's default, the tests) for all three, n = 16 for the omp
# (bench/rtl_speed); the tests expect these four.
set(ORTHOSIM_RTL_MP_MODELS "omp:4;omp:16;crossbar:4;bus:4" CACHE STRING
    "The whole multiprocessors verilated, organisation:n with organisation omp, crossbar or bus and n among ORTHOSIM_RTL_N (docs/rtl.md)")
list(JOIN ORTHOSIM_RTL_N ", " allowed_n)
if(NOT ORTHOSIM_RTL_MP_MODELS)
  message(FATAL_ERROR "ORTHOSIM_RTL_MP_MODELS is empty: expected at least one organisation:n "
                      "(organisation omp, crossbar or bus; n one of ${allowed_n}), e.g. omp:4")
endif()
set(seen_models "")
foreach(model IN LISTS ORTHOSIM_RTL_MP_MODELS)
  if(NOT model MATCHES "^(omp|crossbar|bus):([0-9]+)$")
    message(FATAL_ERROR "ORTHOSIM_RTL_MP_MODELS: '${model}' is not organisation:n: expected "
                        "omp, crossbar or bus, a colon and n (one of ${allowed_n}), e.g. omp:4")
  endif()
  if(NOT CMAKE_MATCH_2 IN_LIST ORTHOSIM_RTL_N)
    message(FATAL_ERROR "ORTHOSIM_RTL_MP_MODELS: '${model}': n = ${CMAKE_MATCH_2} is not one of "
                        "the RTL's n (ORTHOSIM_RTL_N in rtl/limits.cmake): ${allowed_n}")
  endif()
  if(model IN_LIST seen_models)
    message(FATAL_ERROR "ORTHOSIM_RTL_MP_MODELS: '${model}' is listed twice")
  endif()
  list(APPEND seen_models ${model})
endforeach()
set(ORTHOSIM_RTL_LOCAL_WORDS 4096)       # LOCAL: words of each processor's local memory
set(ORTHOSIM_RTL_INSTRUCTION_WORDS 4096) # IMEM: instructions per processor
set(ORTHOSIM_RTL_COMPUTE_BITS 24)        # CYW: bits of a compute op's cycle count
set(ORTHOSIM_RTL_STEP_BITS 16)           # STW: bits of a step mark's step
# LPW: words per access of each processor's local port (local memory and index manipulator): a
# buffer copy of w words takes ceil(w / LPW) zero-time steps (docs/rtl.md, processor).
set(ORTHOSIM_RTL_LOCAL_PORT_WORDS 4)
