// The 4-step mapping of [PH91] section 4.2 (see mapping.hpp for the steps).
#include "sw/mapping/mapping.hpp"

#include <algorithm>
#include <map>
#include <numeric>
#include <optional>
#include <set>
#include <stdexcept>

#include "sw/core/diagnostic.hpp"
#include "sw/mapping/vectorize.hpp"

namespace orthosim::sw {

Clustering::Clustering(std::vector<ProcId> map, std::uint32_t processors, std::string description)
    : map_(std::move(map)), processors_(processors), description_(std::move(description)) {}

Clustering Clustering::blocks(std::uint32_t nodes, std::uint32_t processors) {
  std::vector<ProcId> map(nodes);
  for (NodeId i = 0; i < nodes; ++i) {
    map[i] = static_cast<ProcId>(std::uint64_t{i} * processors / nodes);
  }
  const std::string what =
      nodes <= processors ? "one node per processor" : "blocks of consecutive nodes";
  return Clustering(std::move(map), processors, what);
}

namespace {
std::uint32_t log2_exact(std::uint32_t v) {
  std::uint32_t k = 0;
  while ((1u << k) < v) {
    ++k;
  }
  return (1u << k) == v ? k : 0xFFFFFFFFu;
}
}  // namespace

Clustering Clustering::hypercube(std::uint32_t nodes, std::uint32_t processors,
                                 const std::vector<std::uint32_t>& collapsed) {
  const std::uint32_t p = log2_exact(nodes);
  const std::uint32_t q = log2_exact(processors);
  if (p == 0xFFFFFFFFu || q == 0xFFFFFFFFu || q > p) {
    throw ParameterError("collapse", "a hypercube of 2^p nodes on 2^q <= 2^p processors",
                         std::to_string(nodes) + " nodes on " + std::to_string(processors));
  }
  std::uint32_t mask = 0;
  for (std::uint32_t k : collapsed) {
    if (k >= p || (mask >> k & 1u) != 0) {
      throw ParameterError("collapse", "distinct dimensions x0..x" + std::to_string(p - 1),
                           "x" + std::to_string(k));
    }
    mask |= 1u << k;
  }
  if (collapsed.size() != p - q) {
    throw ParameterError("collapse",
                         std::to_string(p - q) + " dimensions (2^p nodes on 2^q processors: p - q)",
                         std::to_string(collapsed.size()));
  }
  std::vector<ProcId> map(nodes);
  for (NodeId i = 0; i < nodes; ++i) {
    ProcId proc = 0;
    std::uint32_t bit = 0;
    for (std::uint32_t k = 0; k < p; ++k) {
      if ((mask >> k & 1u) == 0) {
        proc |= ((i >> k) & 1u) << bit++;
      }
    }
    map[i] = proc;
  }
  std::string what = "hypercube with ";
  for (std::size_t i = 0; i < collapsed.size(); ++i) {
    what += (i ? "," : "") + std::string("x") + std::to_string(collapsed[i]);
  }
  return Clustering(std::move(map), processors,
                    collapsed.empty() ? "hypercube, one node per processor" : what + " collapsed");
}

std::vector<std::uint32_t> Clustering::most_used_dimensions(const McProgram& program,
                                                            std::uint32_t count) {
  const std::uint32_t p = log2_exact(program.nodes);
  if (p == 0xFFFFFFFFu) {
    throw ParameterError("collapse", "a program of 2^p nodes (a hypercube)",
                         std::to_string(program.nodes) + " nodes");
  }
  std::vector<std::uint64_t> use(p, 0);
  for (const ProgramStep& step : program.steps) {
    for (const Transfer& t : step.transfers) {
      for (NodeId d : t.destinations) {
        for (std::uint32_t k = 0; k < p; ++k) {
          use[k] += ((t.source ^ d) >> k & 1u) * t.words;
        }
      }
    }
  }
  std::vector<std::uint32_t> dims(p);
  std::iota(dims.begin(), dims.end(), 0u);
  std::stable_sort(dims.begin(), dims.end(),
                   [&use](std::uint32_t a, std::uint32_t b) { return use[a] > use[b]; });
  dims.resize(std::min<std::size_t>(count, dims.size()));
  std::sort(dims.begin(), dims.end());
  return dims;
}

Clustering Clustering::torus(std::uint32_t nodes, TorusClusters grid) {
  if (grid.columns == 0 || grid.rows == 0 || grid.columns * grid.rows != nodes) {
    throw ParameterError("torus",
                         "columns x rows = the program's " + std::to_string(nodes) + " nodes",
                         std::to_string(grid.columns) + "x" + std::to_string(grid.rows));
  }
  std::vector<ProcId> map(nodes);
  for (NodeId i = 0; i < nodes; ++i) {
    map[i] = grid.by_columns ? i % grid.columns : i / grid.columns;
  }
  Clustering c(std::move(map), grid.by_columns ? grid.columns : grid.rows,
               "torus " + std::to_string(grid.columns) + "x" + std::to_string(grid.rows) + " by " +
                   (grid.by_columns ? "columns" : "rows"));
  c.torus_ = grid;
  return c;
}

namespace {

IndexSet identity(std::size_t d) {
  IndexSet rho(d);
  std::iota(rho.begin(), rho.end(), 0u);
  return rho;
}

/// Parcels that must share one module address: the modules of one interleaved access stream the
/// same word addresses (Fig. 5(b), (c)), so an access's parcels all sit at one address.
class AddressGroups {
 public:
  explicit AddressGroups(std::size_t size) : parent_(size) {
    std::iota(parent_.begin(), parent_.end(), std::size_t{0});
  }
  std::size_t root(std::size_t i) {
    while (parent_[i] != i) {
      i = parent_[i] = parent_[parent_[i]];
    }
    return i;
  }
  void join(std::size_t a, std::size_t b) { parent_[root(a)] = root(b); }

 private:
  std::vector<std::size_t> parent_;
};

class Mapper {
 public:
  /// With `consumed` (the program itself), each step of it is freed once mapped.
  Mapper(const McProgram& program, Arch arch, const Clustering& clusters, SyncMode sync,
         const StepSink& sink, McProgram* consumed)
      : program_(program),
        consumed_(consumed),
        sync_(sync),
        sink_(sink),
        org_(arch, clusters.processors()),
        clusters_(clusters),
        local_next_(clusters.processors(), 0),
        module_next_(org_.module_count(), 0),
        index_sets_(clusters.processors()) {
    const std::uint32_t n = clusters.processors();
    out_.name = program.name;
    out_.arch = arch;
    out_.nodes = program.nodes;
    out_.processors = n;
    out_.clustering = clusters.description();
    out_.sync = sync;
    for (NodeId i = 0; i < program.nodes; ++i) {
      out_.processor_of.push_back(clusters.processor_of(i));
    }
    out_.machine.name = program.name;
    out_.machine.arch = arch;
    out_.machine.n = n;
    out_.machine.processors.resize(n);
  }

  MappedProgram run() && {
    for (std::uint32_t k = 0; k < program_.steps.size(); ++k) {
      const std::size_t first_message = out_.machine.messages.size();
      MappedStep step = parcels_of(program_.steps[k], k);
      if (const std::optional<std::pair<std::uint32_t, std::uint32_t>> shift =
              torus_translation(program_.steps[k])) {
        translate(step, shift->first, shift->second, first_message);
      } else {
        plan(step);
      }
      allocate_addresses(step);
      emit(step);
      if (consumed_ != nullptr) {
        consumed_->steps[k] = ProgramStep{};
      }
      if (sink_) {
        sink_(std::move(step));
      } else {
        out_.steps.push_back(std::move(step));
      }
    }
    MappingNeeds& needs = out_.needs;
    needs.module_words = std::max(needs.module_words, max_of(module_next_));
    needs.local_words = std::max(needs.local_words, max_of(local_next_));
    // The ops and the manifest are complete: spare capacity would be held for the whole run.
    for (ProcessorProgram& processor : out_.machine.processors) {
      processor.ops.shrink_to_fit();
    }
    out_.machine.messages.shrink_to_fit();
    for (ProcId p = 0; p < org_.n(); ++p) {
      out_.machine.processors[p].index_sets = index_sets_[p];
      needs.index_sets =
          std::max(needs.index_sets, static_cast<std::uint32_t>(index_sets_[p].size()));
    }
    return std::move(out_);
  }

 private:
  static std::uint32_t max_of(const std::vector<std::uint32_t>& v) {
    return v.empty() ? 0 : *std::max_element(v.begin(), v.end());
  }

  std::uint32_t allocate_local(ProcId p, std::uint32_t words) {
    const std::uint32_t at = local_next_[p];
    local_next_[p] += words;
    return at;
  }

  void add_to_manifest(ProcId p, ProcId q, const NodeMessage& m, std::uint32_t src,
                       std::uint32_t dst) {
    out_.machine.messages.push_back(
        manifest_entry(m, static_cast<std::uint32_t>(out_.machine.messages.size()), p, q, src,
                       dst));
    ++out_.node_messages;
  }

  // ---- step 1: processor-level messages and their patterns --------------------------------

  MappedStep parcels_of(const ProgramStep& step, std::uint32_t k) {
    MappedStep out;
    out.index = k;
    out.label = step.label;
    out.compute.assign(org_.n(), Cycle{0});
    for (const ComputePhase& c : step.computes) {
      out.compute[clusters_.processor_of(c.node)] += c.cycles;
    }
    out.node_patterns = classify(step.transfers, program_.nodes);

    // Parcels in order of their first node message; a broadcast transfer is one piece per
    // destination processor, however many of its nodes it reaches there.
    std::map<std::pair<ProcId, ProcId>, std::size_t> parcel_of;
    for (std::uint32_t t = 0; t < step.transfers.size(); ++t) {
      const Transfer& tr = step.transfers[t];
      const ProcId p = clusters_.processor_of(tr.source);
      std::uint32_t src = 0;
      if (tr.broadcast) {
        src = allocate_local(p, tr.words);
      }
      for (NodeId d : tr.destinations) {
        const NodeMessage m{tr.source, d, tr.words, tr.broadcast, k, t};
        const ProcId q = clusters_.processor_of(d);
        if (!tr.broadcast) {
          src = allocate_local(p, tr.words);
        }
        const std::uint32_t dst = allocate_local(q, tr.words);
        add_to_manifest(p, q, m, src, dst);
        if (p == q) {
          out.local_copies.push_back({p, payload_key(m), m.words, src, dst});
          out_.needs.buffer_words = std::max(out_.needs.buffer_words, m.words);
          continue;
        }
        auto [it, fresh] = parcel_of.try_emplace({p, q}, out.parcels.size());
        if (fresh) {
          out.parcels.push_back(Parcel{p, q, false, 0, {}, mailbox(org_, p, q), 0});
        }
        Parcel& parcel = out.parcels[it->second];
        if (tr.broadcast && !parcel.pieces.empty() &&
            parcel.pieces.back().payload == payload_key(m)) {
          parcel.pieces.back().dst_addresses.push_back(dst);
          continue;
        }
        parcel.pieces.push_back({payload_key(m), m.words, parcel.words, src, {dst}});
        parcel.words += m.words;
      }
    }
    mark_broadcasts(out.parcels);
    for (const Parcel& parcel : out.parcels) {
      out_.needs.buffer_words = std::max(out_.needs.buffer_words, parcel.words);
    }
    return out;
  }

  /// A processor whose parcels all carry the same broadcast payloads sends one processor-level
  /// broadcast: one buffer, replicated to every destination's mailbox.
  static void mark_broadcasts(std::vector<Parcel>& parcels) {
    std::map<ProcId, std::vector<Parcel*>> by_source;
    for (Parcel& parcel : parcels) {
      by_source[parcel.source].push_back(&parcel);
    }
    for (auto& entry : by_source) {
      const std::vector<Parcel*>& mine = entry.second;  // a named reference: lambdas may take it
      const auto same_payloads = [&](const Parcel* x) {
        const Parcel& first = *mine.front();
        if (x->pieces.size() != first.pieces.size()) {
          return false;
        }
        for (std::size_t i = 0; i < x->pieces.size(); ++i) {
          if (x->pieces[i].payload.destination != PayloadKey::kBroadcast ||
              !(x->pieces[i].payload == first.pieces[i].payload)) {
            return false;
          }
        }
        return true;
      };
      const bool broadcast = std::all_of(mine.begin(), mine.end(), same_payloads);
      for (Parcel* x : mine) {
        x->broadcast = broadcast;
      }
    }
  }

  std::vector<Transfer> processor_transfers(const std::vector<Parcel>& parcels) const {
    std::vector<Transfer> out;
    std::map<ProcId, std::size_t> broadcast_of;
    for (const Parcel& parcel : parcels) {
      if (parcel.broadcast) {
        auto [it, fresh] = broadcast_of.try_emplace(parcel.source, out.size());
        if (!fresh) {
          out[it->second].destinations.push_back(parcel.destination);
          continue;
        }
      }
      Transfer t;
      t.source = parcel.source;
      t.destinations = {parcel.destination};
      t.broadcast = parcel.broadcast;
      t.words = parcel.words;
      out.push_back(t);
    }
    return out;
  }

  // ---- torus shifts in two IWR steps (section 5.3, Fig. 11(b)) -------------------------------

  /// The node of cluster coordinate c (the processor) and in-cluster coordinate r.
  [[nodiscard]] NodeId torus_node(std::uint32_t c, std::uint32_t r) const {
    const TorusClusters& g = *clusters_.torus_grid();
    return g.by_columns ? c + g.columns * r : r + g.columns * c;
  }

  /// (a, b) when every node (c, r) of the step sends one personalized message, all of one
  /// length, to node (c + a, r + b) with a != 0, on an omp whose n processors each hold one
  /// column (row) of an n x n torus.
  [[nodiscard]] std::optional<std::pair<std::uint32_t, std::uint32_t>> torus_translation(
      const ProgramStep& step) const {
    const std::optional<TorusClusters>& g = clusters_.torus_grid();
    const std::uint32_t n = org_.n();
    if (!g || org_.arch() != Arch::Omp || g->columns != n || g->rows != n ||
        step.transfers.empty()) {
      return std::nullopt;
    }
    std::vector<int> sends(program_.nodes, 0);
    std::optional<std::pair<std::uint32_t, std::uint32_t>> shift;
    for (const Transfer& t : step.transfers) {
      if (t.broadcast || t.destinations.size() != 1 || t.words != step.transfers[0].words) {
        return std::nullopt;
      }
      const auto coords = [&](NodeId v) {
        const std::uint32_t x = v % g->columns, y = v / g->columns;
        return g->by_columns ? std::pair{x, y} : std::pair{y, x};
      };
      const auto [c, r] = coords(t.source);
      const auto [c2, r2] = coords(t.destinations[0]);
      const std::pair<std::uint32_t, std::uint32_t> ab{(c2 + n - c) % n, (r2 + n - r) % n};
      if ((shift && *shift != ab) || ++sends[t.source] > 1) {
        return std::nullopt;
      }
      shift = ab;
    }
    if (step.transfers.size() != program_.nodes || shift->first == 0) {
      return std::nullopt;
    }
    return shift;
  }

  /// Fig. 11(b): IWR 1, P(c) writes the datum of its node (c, r'-b) into M(r', c) over its column
  /// bus, and P(r') reads M(r', 0..n-1) over its row bus, so data buffer c holds column c's datum;
  /// IWR 2, P(r') writes M(r', c') from buffer c'-a through the rotating index set (the index
  /// manipulator does the east/west move), and P(c') reads M(0..n-1, c') over its column bus: the
  /// datum of node (c'-a, r'-b) arrives at node (c', r').
  void translate(MappedStep& step, std::uint32_t a, std::uint32_t b, std::size_t first_message) {
    const std::uint32_t n = org_.n();
    std::map<NodeId, const Message*> from;
    for (std::size_t i = first_message; i < out_.machine.messages.size(); ++i) {
      const Message& m = out_.machine.messages[i];
      from[m.payload.source] = &m;
    }
    step.parcels.clear();
    step.ops.clear();
    std::vector<std::vector<std::size_t>> write1(n), read1(n), write2(n), read2(n);
    for (std::uint32_t c = 0; c < n; ++c) {
      for (std::uint32_t r2 = 0; r2 < n; ++r2) {
        const Message& m = *from.at(torus_node(c, (r2 + n - b) % n));
        write1[c].push_back(step.parcels.size());
        read1[r2].push_back(step.parcels.size());
        step.parcels.push_back({c,
                                r2,
                                false,
                                m.words,
                                {{m.payload, m.words, 0, m.src_address, {}}},
                                org_.module_at({BusKind::Row, r2}, c)});
      }
    }
    for (std::uint32_t r2 = 0; r2 < n; ++r2) {
      for (std::uint32_t c2 = 0; c2 < n; ++c2) {
        const Message& m = *from.at(torus_node((c2 + n - a) % n, (r2 + n - b) % n));
        write2[r2].push_back(step.parcels.size());
        read2[c2].push_back(step.parcels.size());
        // The phase set by name: a positional initializer put it in a field added before it.
        Parcel relay{r2,
                     c2,
                     false,
                     m.words,
                     {{m.payload, m.words, 0, 0, {m.dst_address}}},
                     org_.module_at({BusKind::Row, r2}, c2)};
        relay.phase = 1;
        step.parcels.push_back(std::move(relay));
      }
    }
    const auto op = [&](Direction dir, std::uint32_t phase,
                        const std::vector<std::vector<std::size_t>>& parts) {
      MappedOp o{Pattern::C7, dir, {}, phase};
      for (ProcId p = 0; p < n; ++p) {
        o.accesses.push_back(access(step, p, dir, parts[p]).value());
        if (phase == 1 && dir == Direction::Write) {
          MappedAccess& relay = o.accesses.back();
          relay.from_buffers = true;
          relay.relay_index_set.resize(n);
          for (std::uint32_t slot = 0; slot < n; ++slot) {
            relay.relay_index_set[slot] = (slot + n - a) % n;
          }
        }
      }
      step.ops.push_back(std::move(o));
    };
    op(Direction::Write, 0, write1);
    op(Direction::Read, 0, read1);
    op(Direction::Write, 1, write2);
    op(Direction::Read, 1, read2);
    step.processor_patterns = {Pattern::C7, Pattern::C7};
  }

  // ---- steps 2 and 3: scalar or vector, and the accesses ------------------------------------

  void plan(MappedStep& step) {
    std::map<std::pair<ProcId, ProcId>, std::size_t> index;
    for (std::size_t i = 0; i < step.parcels.size(); ++i) {
      index[{step.parcels[i].source, step.parcels[i].destination}] = i;
    }
    for (const PatternInstance& inst :
         encapsulate(classify(processor_transfers(step.parcels), org_.n()))) {
      step.processor_patterns.push_back(inst.pattern);
      std::vector<std::size_t> members;
      std::vector<std::pair<ProcId, ProcId>> pairs;
      for (const Transfer& t : inst.transfers) {
        for (NodeId d : t.destinations) {
          members.push_back(index.at({t.source, d}));
          pairs.emplace_back(t.source, d);
        }
      }
      const HalfShape send = half_shape(org_, send_demand(org_, pairs));
      const HalfShape recv = half_shape(org_, receive_demand(org_, pairs));
      const Pattern basic = basic_of(inst.pattern);
      add_half(step, members, basic, Direction::Write, listed_as_pattern(send, recv));
      add_half(step, members, basic, Direction::Read, listed_as_pattern(recv, send));
    }
  }

  /// Personalized messages that no single pattern of Table 1 covers (the classifier splits them)
  /// are encapsulated in one many-to-many pattern, C12, as section 4.3 encapsulates C8 in C3: as
  /// one pattern its halves can be single vector steps (every destination reads all its modules
  /// in one access, Fig. 9's "all log n neighbours in one IWR step"), and where they cannot, the
  /// per-processor fallback gives the same accesses the split would. Only when the messages have
  /// one length, as the paper's mappings assume: a vector access moves l words from every module,
  /// so shorter messages in it would cost padding words the split does not pay.
  static std::vector<PatternInstance> encapsulate(std::vector<PatternInstance> instances) {
    std::vector<PatternInstance> out;
    std::optional<std::size_t> personalized;
    std::size_t personalized_count = 0;
    std::set<std::uint32_t> lengths;
    for (const PatternInstance& inst : instances) {
      if (!inst.transfers.front().broadcast) {
        ++personalized_count;
        for (const Transfer& t : inst.transfers) {
          lengths.insert(t.words);
        }
      }
    }
    if (lengths.size() > 1) {
      return instances;
    }
    for (PatternInstance& inst : instances) {
      if (personalized_count < 2 || inst.transfers.front().broadcast) {
        out.push_back(std::move(inst));
        continue;
      }
      if (!personalized) {
        personalized = out.size();
        out.push_back({Pattern::C12, {}});
      }
      PatternInstance& merged = out[*personalized];
      merged.transfers.insert(merged.transfers.end(), inst.transfers.begin(), inst.transfers.end());
    }
    return out;
  }

  /// The parcels of one half, per processor (writer or reader), in order of first appearance.
  static std::vector<std::pair<ProcId, std::vector<std::size_t>>> per_processor(
      const MappedStep& step, const std::vector<std::size_t>& members, Direction dir) {
    std::vector<std::pair<ProcId, std::vector<std::size_t>>> out;
    for (std::size_t i : members) {
      const Parcel& parcel = step.parcels[i];
      const ProcId p = dir == Direction::Write ? parcel.source : parcel.destination;
      auto it = std::find_if(out.begin(), out.end(), [p](const auto& e) { return e.first == p; });
      if (it == out.end()) {
        out.push_back({p, {}});
        it = out.end() - 1;
      }
      it->second.push_back(i);
    }
    return out;
  }

  std::optional<MappedAccess> access(const MappedStep& step, ProcId p, Direction dir,
                                     const std::vector<std::size_t>& parcels) const {
    std::vector<ModuleId> modules;
    for (std::size_t i : parcels) {
      modules.push_back(step.parcels[i].mailbox);
    }
    const std::optional<AccessRoute> r = route(org_, p, modules);
    if (!r) {
      return std::nullopt;
    }
    MappedAccess a;
    a.processor = p;
    a.direction = dir;
    a.bus = r->bus;
    a.slots = r->slots;
    a.parcels = parcels;
    a.replicated = dir == Direction::Write && parcels.size() > 1 &&
                   std::all_of(parcels.begin(), parcels.end(),
                               [&](std::size_t i) { return step.parcels[i].broadcast; });
    for (std::size_t i : parcels) {
      a.vectors = std::max(a.vectors, step.parcels[i].words);
    }
    return a;
  }

  void add_half(MappedStep& step, const std::vector<std::size_t>& members, Pattern basic,
                Direction dir, bool as_pattern) {
    const auto parts = per_processor(step, members, dir);
    if (as_pattern) {
      MappedOp op{basic, dir, {}};
      for (const auto& [p, parcels] : parts) {
        op.accesses.push_back(access(step, p, dir, parcels).value());
      }
      step.ops.push_back(std::move(op));
      return;
    }
    // Several steps: each processor alone, one vector access where its modules share a bus it
    // drives (a one-to-many send is C3 or C4, a many-to-one receive C5), else one C1 per parcel.
    for (const auto& [p, parcels] : parts) {
      std::optional<MappedAccess> whole = access(step, p, dir, parcels);
      if (whole && parcels.size() > 1) {
        const bool broadcast = step.parcels[parcels.front()].broadcast;
        const Pattern label = dir == Direction::Read ? Pattern::C5
                              : broadcast            ? Pattern::C3
                                                     : Pattern::C4;
        step.ops.push_back({label, dir, {std::move(*whole)}});
        continue;
      }
      for (std::size_t i : parcels) {
        step.ops.push_back({Pattern::C1, dir, {access(step, p, dir, {i}).value()}});
      }
    }
  }

  // ---- module addresses -------------------------------------------------------------------

  /// Every parcel gets words of its own in its mailbox for the whole run, so no write can
  /// overwrite a message not yet read, whatever the processors' relative speed.
  void allocate_addresses(MappedStep& step) {
    AddressGroups groups(step.parcels.size());
    for (const MappedOp& op : step.ops) {
      for (const MappedAccess& a : op.accesses) {
        for (std::size_t i : a.parcels) {
          groups.join(i, a.parcels.front());
        }
      }
    }
    std::map<std::size_t, std::vector<std::size_t>> members;
    std::vector<std::size_t> order;
    for (std::size_t i = 0; i < step.parcels.size(); ++i) {
      auto [it, fresh] = members.try_emplace(groups.root(i));
      if (fresh) {
        order.push_back(it->first);
      }
      it->second.push_back(i);
    }
    for (std::size_t root : order) {
      std::uint32_t address = 0;
      std::uint32_t span = 0;
      std::vector<ModuleId> modules;
      for (std::size_t i : members[root]) {
        const Parcel& parcel = step.parcels[i];
        if (std::find(modules.begin(), modules.end(), parcel.mailbox) != modules.end()) {
          throw std::logic_error("two parcels of one access group share module " +
                                 org_.module_name(parcel.mailbox));
        }
        modules.push_back(parcel.mailbox);
        address = std::max(address, module_next_[parcel.mailbox]);
        span = std::max(span, parcel.words);
      }
      for (std::size_t i : members[root]) {
        step.parcels[i].address = address;
        step.parcels[i].span = span;
        module_next_[step.parcels[i].mailbox] = address + span;
      }
    }
    for (MappedOp& op : step.ops) {
      for (MappedAccess& a : op.accesses) {
        a.address = step.parcels[a.parcels.front()].address;
      }
    }
  }

  // ---- step 4: the machine program, with producer-consumer synchronization ------------------

  std::uint32_t index_set(ProcId p, const IndexSet& rho) {
    std::vector<IndexSet>& sets = index_sets_[p];
    const auto it = std::find(sets.begin(), sets.end(), rho);
    if (it != sets.end()) {
      return static_cast<std::uint32_t>(it - sets.begin());
    }
    sets.push_back(rho);
    return static_cast<std::uint32_t>(sets.size() - 1);
  }

  MemoryAccess memory_access(const MappedStep& step, const MappedAccess& a) {
    MemoryAccess m;
    m.direction = a.direction;
    if (a.direction == Direction::Read) {
      // Every parcel has its mailbox words for it alone, and one reader: its words and the
      // padding after them are read no more.
      m.consumed = step.parcels[a.parcels.front()].span;
    }
    m.bus = a.bus;
    m.slots = a.slots;
    m.address = a.address;
    m.vectors = a.vectors;
    m.index_set = index_set(a.processor, a.from_buffers ? a.relay_index_set
                                         : a.replicated ? IndexSet(a.slots.size(), 0u)
                                                        : identity(a.slots.size()));
    return m;
  }

  void emit_write(const MappedStep& step, const MappedAccess& a, OpList& ops) {
    std::vector<ProcId> targets;
    for (std::size_t pos = 0; pos < a.parcels.size(); ++pos) {
      const Parcel& parcel = step.parcels[a.parcels[pos]];
      if (parcel.destination != a.processor) {
        targets.push_back(parcel.destination);  // a processor reading its own write needs no sync
      }
      if ((a.replicated && pos > 0) || a.from_buffers) {
        continue;  // one buffer serves every slot, or the buffers hold the words already
      }
      for (const ParcelPiece& piece : parcel.pieces) {
        ops.emplace_back(LoadBuffer{static_cast<std::uint32_t>(pos), piece.src_address, piece.words,
                                    piece.offset});
      }
    }
    ops.emplace_back(memory_access(step, a));
    if (!targets.empty() && sync_ == SyncMode::Pairs) {
      ops.emplace_back(ActivateSync{ProcSet(targets)});
    }
  }

  void emit_read(const MappedStep& step, const MappedAccess& a, OpList& ops) {
    std::vector<ProcId> waited;
    for (std::size_t i : a.parcels) {
      const ProcId s = step.parcels[i].source;
      if (sync_ == SyncMode::Pairs && s != a.processor &&
          std::find(waited.begin(), waited.end(), s) == waited.end()) {
        waited.push_back(s);
        ops.emplace_back(WaitSync{s});
      }
    }
    ops.emplace_back(memory_access(step, a));
    for (std::size_t pos = 0; pos < a.parcels.size(); ++pos) {
      for (const ParcelPiece& piece : step.parcels[a.parcels[pos]].pieces) {
        for (std::uint32_t dst : piece.dst_addresses) {
          ops.emplace_back(
              StoreBuffer{static_cast<std::uint32_t>(pos), dst, piece.words, piece.offset});
        }
      }
    }
  }

  /// The processors that access memory in one phase of a step: the group of its bus switch.
  static ProcSet participants(const MappedStep& step, std::uint32_t phase) {
    std::vector<ProcId> members;
    for (const MappedOp& op : step.ops) {
      if (op.phase == phase) {
        for (const MappedAccess& a : op.accesses) {
          members.push_back(a.processor);
        }
      }
    }
    return ProcSet(members);
  }

  void emit_phase(const MappedStep& step, ProcId p, std::uint32_t phase, Direction dir,
                  OpList& ops) {
    for (const MappedOp& op : step.ops) {
      for (const MappedAccess& a : op.accesses) {
        if (a.processor != p || a.direction != dir || op.phase != phase) {
          continue;
        }
        if (dir == Direction::Write) {
          emit_write(step, a, ops);
        } else {
          emit_read(step, a, ops);
        }
      }
    }
  }

  /// Per processor: compute, local copies, every write (each followed by its activate-sync),
  /// then every read (each preceded by a wait-sync per writer), then the step mark.
  void emit(const MappedStep& step) {
    for (ProcId p = 0; p < org_.n(); ++p) {
      OpList& ops = out_.machine.processors[p].ops;
      if (step.compute[p] > Cycle{0}) {
        ops.emplace_back(Compute{step.compute[p]});
      }
      for (const LocalCopy& c : step.local_copies) {
        if (c.processor == p) {
          ops.emplace_back(LoadBuffer{0, c.src_address, c.words, 0});
          ops.emplace_back(StoreBuffer{0, c.dst_address, c.words, 0});
        }
      }
      std::uint32_t phases = 1;
      for (const MappedOp& op : step.ops) {
        phases = std::max(phases, op.phase + 1);
      }
      for (std::uint32_t phase = 0; phase < phases; ++phase) {
        emit_phase(step, p, phase, Direction::Write, ops);
        if (sync_ == SyncMode::BusSwitch) {
          const ProcSet group = participants(step, phase);
          if (group.contains(p)) {
            ops.emplace_back(BusSwitch{group});
          }
        }
        emit_phase(step, p, phase, Direction::Read, ops);
      }
      ops.emplace_back(StepMark{step.index});
    }
  }

  const McProgram& program_;
  McProgram* consumed_;
  const SyncMode sync_;
  const StepSink& sink_;
  MemoryOrganization org_;
  const Clustering& clusters_;
  std::vector<std::uint32_t> local_next_;
  std::vector<std::uint32_t> module_next_;
  std::vector<std::vector<IndexSet>> index_sets_;
  MappedProgram out_;
};

}  // namespace

MappedProgram map_program(const McProgram& program, Arch arch, std::uint32_t processors) {
  if (processors == 0 || processors > kMaxProcessors) {
    throw ParameterError("n", "1.." + std::to_string(kMaxProcessors) + " processors",
                         std::to_string(processors));
  }
  if (program.nodes == 0) {
    throw InputError({program.name}, "a program of at least one node");
  }
  return map_program(program, arch, Clustering::blocks(program.nodes, processors));
}

std::string to_string(SyncMode mode) { return mode == SyncMode::Pairs ? "pairs" : "iwr"; }

namespace {
void check_clustering(const McProgram& program, const Clustering& clustering) {
  if (clustering.processors() == 0 || clustering.processors() > kMaxProcessors) {
    throw ParameterError("n", "1.." + std::to_string(kMaxProcessors) + " processors",
                         std::to_string(clustering.processors()));
  }
  if (clustering.nodes() != program.nodes) {
    throw InputError({program.name},
                     "a clustering of the program's " + std::to_string(program.nodes) + " nodes");
  }
}
}  // namespace

MappedProgram map_program(const McProgram& program, Arch arch, const Clustering& clustering,
                          SyncMode sync, const StepSink& sink) {
  check_clustering(program, clustering);
  return Mapper(program, arch, clustering, sync, sink, nullptr).run();
}

MappedProgram map_program(McProgram&& program, Arch arch, const Clustering& clustering,
                          SyncMode sync, const StepSink& sink) {
  check_clustering(program, clustering);
  return Mapper(program, arch, clustering, sync, sink, &program).run();
}

void fit_config(const MappingNeeds& needs, const FixedSizes& fixed, SystemConfig& config) {
  const auto fit = [](std::uint32_t need, bool is_fixed, std::uint32_t& value,
                      const char* parameter, const char* what) {
    if (value >= need) {
      return;
    }
    if (is_fixed) {
      throw ParameterError(parameter, "at least " + std::to_string(need) + " words (" + what + ")",
                           std::to_string(value));
    }
    value = need;
  };
  fit(needs.buffer_words, fixed.buffer_words, config.buffer_words, "buffer-words",
      "the longest message between two processors in one step");
  fit(needs.module_words, fixed.module_words, config.module_words, "module-words",
      "every message keeps its own words in its mailbox module");
  fit(needs.local_words, fixed.local_words, config.local_words, "local-words",
      "the messages each processor sends and receives");
  config.index_sets = std::max(config.index_sets, needs.index_sets);
}

}  // namespace orthosim::sw
