#include "sw/calmant/calmant.hpp"

#include <algorithm>
#include <random>
#include <stdexcept>

#include "sw/schedule/schedule_check.hpp"

namespace orthosim::sw::calmant {
namespace {

std::uint32_t bit(std::uint32_t value, std::int64_t position) {
  return position < 0 ? 0u : (value >> position) & 1u;
}

/// floor(a / b) and a mod b for a possibly negative a (section 4.2.3's k runs below i).
std::int64_t floor_div(std::int64_t a, std::int64_t b) {
  return a >= 0 ? a / b : -((-a + b - 1) / b);
}
std::int64_t floor_mod(std::int64_t a, std::int64_t b) { return a - floor_div(a, b) * b; }

std::uint64_t ceil_div(std::uint64_t a, std::uint64_t b) { return (a + b - 1) / b; }

/// One message of a printed rule: in `step`, `process` sends along `dimension`.
struct Slot {
  std::uint32_t step = 0;
  std::uint32_t process = 0;
  std::uint32_t dimension = 0;
};

/// The schedule of a rule's slots; `raw_steps` gets the steps the rule spans ("allotted", its
/// P), the empty ones included.
Schedule schedule_of_slots(const CubeOnMesh& cube, const std::string& name,
                           const std::vector<Slot>& slots, const BlockTag& tag,
                           std::uint32_t allotted, std::uint32_t* raw_steps = nullptr) {
  Schedule s;
  s.name = name;
  s.nodes = cube.nodes();
  std::uint32_t steps = allotted;
  for (const Slot& slot : slots) {
    steps = std::max(steps, slot.step + 1);
  }
  s.steps.resize(steps);
  if (raw_steps != nullptr) {
    *raw_steps = steps;
  }
  for (const Slot& slot : slots) {
    const NodeId from = cube.node_of(slot.process);
    const NodeId to = cube.node_of(slot.process ^ (1u << slot.dimension));
    const Block block{from, to, tag ? tag(slot.dimension) : 0u};
    s.blocks.push_back(block);
    s.steps[slot.step].messages.push_back(ScheduledMessage{from, to, {block}});
  }
  // A step no group uses (small meshes) is left out: a program step sends something.
  s.steps.erase(std::remove_if(s.steps.begin(), s.steps.end(),
                               [](const ScheduleStep& step) { return step.messages.empty(); }),
                s.steps.end());
  return s;
}

/// The group of `process` on the axis of dimension k: its coordinate mod 2^(k div c), 0 for a
/// negative k (section 4.2.3's dimensions below 0).
std::uint32_t group(const CubeOnMesh& cube, std::uint32_t process, std::int64_t k) {
  const std::int64_t level = floor_div(k, cube.c);
  if (level < 0) {
    return 0;
  }
  const auto axis = static_cast<std::uint32_t>(floor_mod(k, cube.c));
  return cube.coordinate(process, axis) & ((1u << level) - 1u);
}

/// Fig. 3 of [CALMANT]: in steps s and s+1 a node exchanges along dimensions k and k+c of one
/// axis (line levels l and l+1). A node whose bits l and l+1 are equal sends along k+c first and
/// receives along k; the others send along k first.
void line_pair(const CubeOnMesh& cube, std::uint32_t process, std::uint32_t k, std::uint32_t s,
               std::vector<Slot>& out) {
  const std::uint32_t axis = k % cube.c;
  const std::uint32_t level = k / cube.c;
  const std::uint32_t x = cube.coordinate(process, axis);
  const bool equal = bit(x, level) == bit(x, level + 1);
  out.push_back(Slot{s, process, equal ? k + cube.c : k});
  out.push_back(Slot{s + 1, process, equal ? k : k + cube.c});
}

/// The steps a rule allots a subtask: its P by Properties 1 to 3 and section 3.2 (LB, and
/// 2 ceil(LB/2) for section 4.2.3's pairs of steps).
std::uint32_t allotted_steps(std::uint32_t c, Task t) {
  const std::uint64_t lb = lower_bound(c, t);
  return static_cast<std::uint32_t>(rule_of(c, t) == Rule::MeshBetween ? 2 * ceil_div(lb, 2) : lb);
}

std::vector<Slot> printed_slots(const CubeOnMesh& cube, Task t) {
  const std::uint32_t c = cube.c;
  const Rule rule = rule_of(c, t);
  const std::uint64_t lb = lower_bound(c, t);
  std::vector<Slot> slots;
  for (std::uint32_t n = 0; n < cube.nodes(); ++n) {
    switch (rule) {
      case Rule::LinePair: {  // 3.2.1: g(m) = m mod 2^i, s(m) = 2 g(m)
        const std::uint32_t g = n & ((1u << t.first) - 1u);
        line_pair(cube, n, t.first, 2 * g, slots);
        break;
      }
      case Rule::LineSingle: {  // 3.2.2, read as g'(m) = m mod 2^i, s'(m) = g'(m)
        slots.push_back(Slot{n & ((1u << t.first) - 1u), n, t.first});
        break;
      }
      case Rule::MeshFull: {  // 4.2.1: s = 2 ((sum of groups + k) mod (LB/2)), k = i..i+c-1
        std::uint64_t sum = 0;
        for (std::uint32_t k = t.first; k < t.first + c; ++k) {
          sum += group(cube, n, k);
        }
        for (std::uint32_t k = t.first; k < t.first + c; ++k) {
          line_pair(cube, n, k, static_cast<std::uint32_t>(2 * ((sum + k) % (lb / 2))), slots);
        }
        break;
      }
      case Rule::MeshUpToC: {  // 4.2.2: s = (sum of groups + k) mod LB, k = i..i+x-1
        std::uint64_t sum = 0;
        for (std::uint32_t k = t.first; k < t.first + t.count; ++k) {
          sum += group(cube, n, k);
        }
        for (std::uint32_t k = t.first; k < t.first + t.count; ++k) {
          slots.push_back(Slot{static_cast<std::uint32_t>((sum + k) % lb), n, k});
        }
        break;
      }
      case Rule::MeshBetween: {  // 4.2.3: k = i+x-2c .. i+x-c-1, s = 2 ((sum + k) mod ceil(LB/2))
        const std::int64_t lo = std::int64_t{t.first} + t.count - 2 * c;
        const std::int64_t hi = std::int64_t{t.first} + t.count - c - 1;
        std::int64_t sum = 0;
        for (std::int64_t k = lo; k <= hi; ++k) {
          sum += group(cube, n, k);
        }
        const auto pairs = static_cast<std::int64_t>(ceil_div(lb, 2));
        for (std::int64_t k = lo; k <= hi; ++k) {
          const auto s = static_cast<std::uint32_t>(2 * floor_mod(sum + k, pairs));
          if (k >= t.first) {  // both k and k+c: the line's pair of steps
            line_pair(cube, n, static_cast<std::uint32_t>(k), s, slots);
          } else {
            // Only k+c (line level l+1, l = k div c): the group's two steps split by bit l, as
            // section 3.2.2 splits the nodes of a group; at level 0 every node in step s.
            const std::int64_t level = floor_div(k, c);
            const std::uint32_t x = cube.coordinate(n, static_cast<std::uint32_t>(floor_mod(k, c)));
            slots.push_back(Slot{s + bit(x, level), n, static_cast<std::uint32_t>(k + c)});
          }
        }
        break;
      }
    }
  }
  return slots;
}

}  // namespace

CubeOnMesh::CubeOnMesh(std::uint32_t cube_dimension, std::uint32_t axes)
    : d(cube_dimension), c(axes) {
  if (c < 1 || c > 3 || d == 0 || d % c != 0 || d > 16) {
    throw std::invalid_argument("CALMANT: a " + std::to_string(d) + "-cube on a " +
                                std::to_string(c) +
                                "-dimensional mesh (c in 1..3 dividing d, 2^d <= 65536 expected)");
  }
}

CubeOnMesh CubeOnMesh::of(const Topology& mesh) {
  const std::vector<std::uint32_t>& r = mesh.radices();
  const bool square = std::all_of(r.begin(), r.end(), [&](std::uint32_t k) { return k == r[0]; });
  const std::uint32_t k = r.empty() ? 0 : r[0];
  if (mesh.kind() != TopologyKind::Mesh || !square || k < 2 || (k & (k - 1)) != 0) {
    throw std::invalid_argument("CALMANT needs a line or mesh of equal power-of-two radices, not " +
                                mesh.to_string());
  }
  std::uint32_t per_axis = 0;
  while ((1u << per_axis) < k) {
    ++per_axis;
  }
  const auto c = static_cast<std::uint32_t>(r.size());
  return CubeOnMesh(per_axis * c, c);
}

Topology CubeOnMesh::mesh() const { return Topology::mesh(std::vector<std::uint32_t>(c, side())); }

std::uint32_t CubeOnMesh::coordinate(std::uint32_t process, std::uint32_t axis) const {
  std::uint32_t x = 0;
  for (std::uint32_t l = 0; l < d / c; ++l) {
    x |= bit(process, axis + l * c) << l;
  }
  return x;
}

NodeId CubeOnMesh::node_of(std::uint32_t process) const {
  NodeId node = 0;
  for (std::uint32_t axis = c; axis-- > 0;) {
    node = node * side() + coordinate(process, axis);
  }
  return node;
}

std::uint32_t CubeOnMesh::process_of(NodeId node) const {
  std::uint32_t process = 0;
  for (std::uint32_t axis = 0; axis < c; ++axis) {
    const std::uint32_t x = node % side();
    node /= side();
    for (std::uint32_t l = 0; l < d / c; ++l) {
      process |= bit(x, l) << (axis + l * c);
    }
  }
  return process;
}

std::string to_string(Task task, std::uint32_t c) {
  return "<" + std::to_string(task.first) + "," + std::to_string(task.count) + ">_" +
         std::to_string(c);
}

std::vector<std::pair<NodeId, NodeId>> task_pairs(const CubeOnMesh& cube, Task task) {
  std::vector<std::pair<NodeId, NodeId>> pairs;
  pairs.reserve(std::size_t{cube.nodes()} * task.count);
  for (std::uint32_t n = 0; n < cube.nodes(); ++n) {
    for (std::uint32_t k = task.first; k < task.first + task.count; ++k) {
      pairs.emplace_back(cube.node_of(n), cube.node_of(n ^ (1u << k)));
    }
  }
  return pairs;
}

std::uint64_t lambda_max_routed(const CubeOnMesh& cube, Task task) {
  const std::vector<std::uint32_t> loads = directed_link_loads(cube.mesh(), task_pairs(cube, task));
  return loads.empty() ? 0 : *std::max_element(loads.begin(), loads.end());
}

std::uint64_t lambda_max_line(Task task) {
  if (task.count == 0) {
    return 0;
  }
  const std::uint64_t top = std::uint64_t{1} << (task.first + task.count + 1);
  const std::uint64_t low = std::uint64_t{1} << (task.count % 2 == 0 ? task.first + 1 : task.first);
  return (top - low) / 3;
}

std::uint64_t lambda_max(std::uint32_t c, Task task) {
  if (c == 1 || task.count == 0) {
    return lambda_max_line(task);
  }
  return lambda_max_line(Task{(task.first + (task.count - 1) % c) / c,
                              static_cast<std::uint32_t>(ceil_div(task.count, c))});
}

std::uint64_t lower_bound(std::uint32_t c, Task task) {
  return std::max<std::uint64_t>(lambda_max(c, task), task.count);
}

std::vector<Task> decomposition(std::uint32_t c, Task task) {
  std::vector<Task> out;
  const std::uint32_t i = task.first;
  const std::uint32_t m = task.count;
  if (c == 1) {
    if (m % 2 == 1) {
      out.push_back(Task{i, 1});
      for (std::uint32_t k = 1; k <= (m - 1) / 2; ++k) {
        out.push_back(Task{i + 2 * k - 1, 2});
      }
    } else {
      for (std::uint32_t k = 0; k < m / 2; ++k) {
        out.push_back(Task{i + 2 * k, 2});
      }
    }
    return out;
  }
  for (std::uint32_t k = 1; k <= m / (2 * c); ++k) {
    out.push_back(Task{i + m - 2 * k * c, 2 * c});
  }
  if (m % (2 * c) != 0) {
    out.push_back(Task{i, m % (2 * c)});
  }
  return out;
}

std::uint64_t lemma2_bound(std::uint32_t c, Task task) {
  if (c == 2 && task.count >= 7 && task.first <= 1) {
    return 2;
  }
  if (c == 3 && task.count >= 9 && task.first <= 4) {
    return 4;
  }
  return 0;
}

std::uint64_t correction_r(std::uint32_t c, Task task) {
  if (c == 1) {
    return 0;
  }
  const std::uint32_t x = task.count % (2 * c);
  return c < x && x > lambda_max(c, Task{task.first, x}) && x % 2 == 1 ? 1 : 0;
}

std::uint64_t steps_formula(std::uint32_t c, Task task) {
  if (c == 1) {
    return lower_bound(1, task);
  }
  std::uint64_t sum = 0;
  for (Task sub : decomposition(c, task)) {
    sum += lower_bound(c, sub);
  }
  return sum + correction_r(c, task);
}

std::string to_string(Rule rule) {
  switch (rule) {
    case Rule::LinePair:
      return "3.2.1";
    case Rule::LineSingle:
      return "3.2.2";
    case Rule::MeshFull:
      return "4.2.1";
    case Rule::MeshUpToC:
      return "4.2.2";
    case Rule::MeshBetween:
      return "4.2.3";
  }
  return "?";
}

Rule rule_of(std::uint32_t c, Task subtask) {
  const std::uint32_t x = subtask.count;
  if (c == 1 && (x == 1 || x == 2)) {
    return x == 2 ? Rule::LinePair : Rule::LineSingle;
  }
  if (c > 1 && x >= 1 && x <= 2 * c) {
    return x == 2 * c ? Rule::MeshFull : x <= c ? Rule::MeshUpToC : Rule::MeshBetween;
  }
  throw std::invalid_argument("CALMANT: no rule schedules " + to_string(subtask, c));
}

Schedule printed_subtask_schedule(const CubeOnMesh& cube, Task subtask, const BlockTag& tag) {
  return schedule_of_slots(cube, to_string(subtask, cube.c), printed_slots(cube, subtask), tag,
                           allotted_steps(cube.c, subtask));
}

Schedule first_fit(const Topology& net, const Schedule& schedule) {
  Schedule out;
  out.name = schedule.name;
  out.nodes = schedule.nodes;
  out.blocks = schedule.blocks;
  const std::size_t ports = net.ports().size();
  struct Taken {
    std::vector<bool> sends, receives, links;
  };
  std::vector<Taken> taken;
  for (const ScheduleStep& step : schedule.steps) {
    for (const ScheduledMessage& msg : step.messages) {
      const auto route = net.route(msg.source, msg.destination);
      std::size_t t = 0;
      for (;; ++t) {
        if (t == taken.size()) {
          taken.push_back(Taken{std::vector<bool>(schedule.nodes),
                                std::vector<bool>(schedule.nodes),
                                std::vector<bool>(schedule.nodes * ports)});
          out.steps.emplace_back();
        }
        const Taken& k = taken[t];
        const bool free = !k.sends[msg.source] && !k.receives[msg.destination] &&
                          std::none_of(route.begin(), route.end(), [&](const auto& hop) {
                            return k.links[hop.first * ports + net.port_index(hop.second)];
                          });
        if (free) {
          break;
        }
      }
      Taken& k = taken[t];
      k.sends[msg.source] = true;
      k.receives[msg.destination] = true;
      for (const auto& [node, port] : route) {
        k.links[node * ports + net.port_index(port)] = true;
      }
      out.steps[t].messages.push_back(msg);
    }
  }
  return out;
}

std::optional<Schedule> fit_in_steps(const Topology& net, const Schedule& schedule,
                                     std::uint32_t steps, std::uint64_t budget) {
  if (steps == 0) {
    return std::nullopt;
  }
  std::vector<const ScheduledMessage*> messages;
  std::vector<std::uint32_t> step_of;  // the start: each message's own step, mod `steps`
  for (std::size_t k = 0; k < schedule.steps.size(); ++k) {
    for (const ScheduledMessage& m : schedule.steps[k].messages) {
      messages.push_back(&m);
      step_of.push_back(static_cast<std::uint32_t>(k % steps));
    }
  }
  const std::size_t count = messages.size();
  // The conflict graph: messages that share a sender, a receiver or a directed link.
  const std::size_t ports = net.ports().size();
  const std::size_t links = std::size_t{net.nodes()} * ports;
  std::vector<std::vector<std::uint32_t>> users(links + 2 * std::size_t{net.nodes()});
  for (std::uint32_t m = 0; m < count; ++m) {
    for (const auto& [node, port] : net.route(messages[m]->source, messages[m]->destination)) {
      users[node * ports + net.port_index(port)].push_back(m);
    }
    users[links + messages[m]->source].push_back(m);
    users[links + net.nodes() + messages[m]->destination].push_back(m);
  }
  std::vector<std::vector<std::uint32_t>> conflicts(count);
  for (const std::vector<std::uint32_t>& group : users) {
    for (std::uint32_t a : group) {
      for (std::uint32_t b : group) {
        if (a != b) {
          conflicts[a].push_back(b);
        }
      }
    }
  }
  for (std::vector<std::uint32_t>& c : conflicts) {
    std::sort(c.begin(), c.end());
    c.erase(std::unique(c.begin(), c.end()), c.end());
  }
  // Tabu search (Hertz and de Werra's Tabucol): clash[m][s] counts m's conflicts in step s; each
  // iteration moves a clashing message to the step that removes the most clashes, not back to a
  // step it left within the tabu tenure unless that beats the best total so far.
  std::vector<std::vector<std::uint32_t>> clash(count, std::vector<std::uint32_t>(steps, 0));
  std::int64_t total = 0;
  for (std::uint32_t m = 0; m < count; ++m) {
    for (std::uint32_t n : conflicts[m]) {
      ++clash[m][step_of[n]];
    }
    total += clash[m][step_of[m]];
  }
  total /= 2;
  // The clashing messages, kept as a list with each one's place in it.
  std::vector<std::uint32_t> clashing;
  std::vector<std::int64_t> place(count, -1);
  const auto update = [&](std::uint32_t m) {
    const bool is = clash[m][step_of[m]] > 0;
    if (is && place[m] < 0) {
      place[m] = static_cast<std::int64_t>(clashing.size());
      clashing.push_back(m);
    } else if (!is && place[m] >= 0) {
      const std::uint32_t last = clashing.back();
      clashing[static_cast<std::size_t>(place[m])] = last;
      place[last] = place[m];
      clashing.pop_back();
      place[m] = -1;
    }
  };
  for (std::uint32_t m = 0; m < count; ++m) {
    update(m);
  }
  std::vector<std::vector<std::uint64_t>> tabu_until(count, std::vector<std::uint64_t>(steps, 0));
  std::mt19937 random(1);  // fixed: the same schedule on every machine
  std::int64_t best = total;
  for (std::uint64_t iteration = 1; total > 0 && iteration <= budget; ++iteration) {
    std::int64_t best_delta = 0;
    std::optional<std::pair<std::uint32_t, std::uint32_t>> move;
    std::uint32_t ties = 0;
    for (std::uint32_t m : clashing) {
      for (std::uint32_t s = 0; s < steps; ++s) {
        if (s == step_of[m]) {
          continue;
        }
        const std::int64_t delta = std::int64_t{clash[m][s]} - clash[m][step_of[m]];
        if (tabu_until[m][s] >= iteration && total + delta >= best) {
          continue;
        }
        if (!move || delta < best_delta) {
          best_delta = delta;
          move = {m, s};
          ties = 1;
        } else if (delta == best_delta && random() % ++ties == 0) {
          move = {m, s};
        }
      }
    }
    if (!move) {
      continue;  // every move tabu: the tenures run out
    }
    const auto [m, s] = *move;
    const std::uint32_t from = step_of[m];
    step_of[m] = s;
    total += best_delta;
    best = std::min(best, total);
    for (std::uint32_t n : conflicts[m]) {
      --clash[n][from];
      ++clash[n][s];
      update(n);
    }
    update(m);
    tabu_until[m][from] = iteration + random() % 10 + clashing.size() * 3 / 5;
  }
  if (total > 0) {
    return std::nullopt;
  }
  Schedule out;
  out.name = schedule.name;
  out.nodes = schedule.nodes;
  out.blocks = schedule.blocks;
  out.steps.resize(steps);
  for (std::uint32_t m = 0; m < count; ++m) {
    out.steps[step_of[m]].messages.push_back(*messages[m]);
  }
  out.steps.erase(std::remove_if(out.steps.begin(), out.steps.end(),
                                 [](const ScheduleStep& step) { return step.messages.empty(); }),
                  out.steps.end());
  return out;
}

std::string to_string(Repair repair) {
  switch (repair) {
    case Repair::None:
      return "none";
    case Repair::Search:
      return "search";
    case Repair::FirstFit:
      return "first fit";
  }
  return "?";
}

TaskSchedule task_schedule(const CubeOnMesh& cube, Task task, const BlockTag& tag) {
  TaskSchedule out;
  out.schedule.name = to_string(task, cube.c);
  out.schedule.nodes = cube.nodes();
  const Topology mesh = cube.mesh();
  for (Task sub : decomposition(cube.c, task)) {
    SubtaskPlan plan;
    plan.task = sub;
    plan.rule = rule_of(cube.c, sub);
    plan.lower_bound = lower_bound(cube.c, sub);
    Schedule s = schedule_of_slots(cube, to_string(sub, cube.c), printed_slots(cube, sub), tag,
                                   allotted_steps(cube.c, sub), &plan.printed_steps);
    plan.printed_conflict_free = check_schedule(mesh, s).ok();
    if (!plan.printed_conflict_free) {
      std::uint64_t messages = 0;
      for (const ScheduleStep& step : s.steps) {
        messages += step.messages.size();
      }
      std::optional<Schedule> fitted =
          fit_in_steps(mesh, s, static_cast<std::uint32_t>(plan.lower_bound), 200 * messages);
      plan.repair = fitted ? Repair::Search : Repair::FirstFit;
      s = fitted ? std::move(*fitted) : first_fit(mesh, s);
    }
    plan.steps = static_cast<std::uint32_t>(s.steps.size());
    for (std::size_t k = 0; k < s.steps.size(); ++k) {
      s.steps[k].label = to_string(sub, cube.c) + " step " + std::to_string(k);
    }
    out.schedule.blocks.insert(out.schedule.blocks.end(), s.blocks.begin(), s.blocks.end());
    out.schedule.steps.insert(out.schedule.steps.end(), s.steps.begin(), s.steps.end());
    out.subtasks.push_back(plan);
  }
  return out;
}

// ---- the pipelined CC-cube -----------------------------------------------------------------------

std::string to_string(Phase phase) {
  switch (phase) {
    case Phase::Prologue:
      return "prologue";
    case Phase::Kernel:
      return "kernel";
    case Phase::Epilogue:
      return "epilogue";
  }
  return "?";
}

std::vector<Iteration> pipeline_iterations(std::uint32_t d, std::uint32_t q) {
  if (q == 0 || d == 0) {
    throw std::invalid_argument("CALMANT: a pipelining degree and a cube dimension of at least 1");
  }
  std::vector<Iteration> out;
  // Iteration t uses the dimensions k with 0 <= t - k < Q and k < d: [max(0, t-Q+1), min(d-1, t)].
  // The prologue is the min(d, Q) - 1 iterations before the first that uses min(d, Q)
  // dimensions, the kernel the |d - Q| + 1 that use them all, the epilogue the rest.
  const std::uint32_t prologue = std::min(d, q) - 1;
  const std::uint32_t kernel = std::max(d, q) - std::min(d, q) + 1;
  for (std::uint32_t t = 0; t + 1 < d + q; ++t) {
    const std::uint32_t lo = t + 1 > q ? t + 1 - q : 0;
    const std::uint32_t hi = std::min(d - 1, t);
    const std::uint32_t count = hi - lo + 1;
    const Phase phase = t < prologue            ? Phase::Prologue
                        : t < prologue + kernel ? Phase::Kernel
                                                : Phase::Epilogue;
    out.push_back(Iteration{phase, Task{lo, count}});
  }
  return out;
}

double pipeline_cost(const std::vector<std::uint64_t>& steps, std::uint32_t n_words,
                     std::uint32_t q, const CostParameters& cost) {
  double sum = 0;
  const double step = cost.beta + static_cast<double>(n_words) / q * cost.tau;
  for (std::uint64_t p : steps) {
    sum += static_cast<double>(p) * step;
  }
  return sum + static_cast<double>(steps.size()) * cost.b;
}

std::uint64_t appendix_steps_times_18(std::uint32_t c, std::uint32_t d, std::uint32_t q) {
  const auto pow2 = [](std::int64_t e) { return std::int64_t{1} << e; };
  const auto D = static_cast<std::int64_t>(d);
  const auto Q = static_cast<std::int64_t>(q);
  std::int64_t value = 0;
  if (c == 1) {
    if (q <= d) {  // T_shallow
      const std::int64_t f1 = Q % 2 == 0 ? -pow2(D - Q + 2) - 9 * Q : pow2(D - Q + 2) - 9 * Q - 9;
      value = (3 * Q + 1) * pow2(D + 2) + f1;
    } else {  // T_deep
      const std::int64_t f2 = D % 2 == 0 ? 3 * D - 12 * Q - 4 : -3 * D - 6 * Q - 5;
      value = (3 * Q + 1) * pow2(D + 2) + f2;
    }
  } else {
    const auto C = static_cast<std::int64_t>(c);
    const std::int64_t side = D / C;
    if (q <= d) {  // T_shallow, r = (Q-1) mod c
      const std::int64_t qc = (Q + C - 1) / C;
      const std::int64_t r = (Q - 1) % C;
      const std::int64_t f3 = qc % 2 == 0
                                  ? -(C + 3 * r) * pow2(side - qc + 2) - 9 * C * qc
                                  : (2 * C - 3 * r) * pow2(side - qc + 1) - 9 * C * (qc + 1);
      value = (C + 3 * C * qc + 3 * r) * pow2(side + 2) + f3;
    } else {  // T_deep
      const std::int64_t f4 =
          side % 2 == 0 ? 3 * D - 12 * Q - 16 * C + 12 : -3 * D - 6 * Q - 11 * C + 6;
      value = (3 * Q + 4 * C - 3) * pow2(side + 2) + f4;
    }
  }
  return static_cast<std::uint64_t>(value);
}

PipelineSchedule pipeline_schedule(const CubeOnMesh& cube, const PipelineProgram& p) {
  if (p.q == 0 || p.n_words == 0 || p.n_words % p.q != 0) {
    throw std::invalid_argument("CALMANT: the pipelining degree must divide N (N = " +
                                std::to_string(p.n_words) + ", Q = " + std::to_string(p.q) + ")");
  }
  PipelineSchedule out;
  out.iterations = pipeline_iterations(cube.d, p.q);
  Schedule& s = out.schedule;
  s.name = "calmant_d" + std::to_string(cube.d) + "_c" + std::to_string(cube.c) + "_q" +
           std::to_string(p.q) + (p.scheduling == Scheduling::Naive ? "_naive" : "");
  s.nodes = cube.nodes();
  for (std::uint32_t t = 0; t < out.iterations.size(); ++t) {
    const Task task = out.iterations[t].task;
    const BlockTag packet = [t](std::uint32_t k) { return t - k; };
    std::vector<ScheduleStep> steps;
    if (p.scheduling == Scheduling::Calmant) {
      TaskSchedule ts = task_schedule(cube, task, packet);
      s.blocks.insert(s.blocks.end(), ts.schedule.blocks.begin(), ts.schedule.blocks.end());
      steps = std::move(ts.schedule.steps);
    } else {
      ScheduleStep all;
      for (std::uint32_t n = 0; n < cube.nodes(); ++n) {
        for (std::uint32_t k = task.first; k < task.first + task.count; ++k) {
          const Block b{cube.node_of(n), cube.node_of(n ^ (1u << k)), packet(k)};
          s.blocks.push_back(b);
          all.messages.push_back(ScheduledMessage{b.origin, b.destination, {b}});
        }
      }
      steps.push_back(std::move(all));
    }
    const std::string name = "it" + std::to_string(t) + " " + to_string(task, cube.c);
    for (std::size_t k = 0; k < steps.size(); ++k) {
      steps[k].label = name + (steps.size() > 1 ? " step " + std::to_string(k) : "");
    }
    if (p.compute_cycles > 0) {
      for (NodeId n = 0; n < cube.nodes(); ++n) {
        steps.front().local.push_back(LocalWork{n, 0, Cycle{p.compute_cycles}});
      }
    }
    out.iteration_steps.push_back(static_cast<std::uint32_t>(steps.size()));
    s.steps.insert(s.steps.end(), steps.begin(), steps.end());
    if (p.barrier_cycles > 0) {
      ScheduleStep barrier;
      barrier.label = "barrier " + std::to_string(t);
      for (NodeId n = 0; n < cube.nodes(); ++n) {
        barrier.local.push_back(LocalWork{n, 0, Cycle{p.barrier_cycles}});
      }
      s.steps.push_back(std::move(barrier));
    }
  }
  return out;
}

// ---- the complete exchange -----------------------------------------------------------------------

namespace {

/// The blocks node n sends along dimension k, in reverse order of position, once the dimensions
/// below k are done: position j (bit k set) holds the block that left n xor (j mod 2^k) for
/// (n xor (j mod 2^k)) xor j.
std::vector<Block> sent_along(std::uint32_t d, std::uint32_t n, std::uint32_t k) {
  std::vector<Block> out;
  for (std::uint32_t j = (1u << d); j-- > 0;) {
    if ((j >> k) & 1u) {
      const std::uint32_t origin = n ^ (j & ((1u << k) - 1u));
      out.push_back(Block{origin, origin ^ j, 0});
    }
  }
  return out;
}

void check_cube_dimension(std::uint32_t d) {
  if (d < 1 || d > 16) {
    throw std::invalid_argument("complete exchange: a d-cube with d in 1..16, not " +
                                std::to_string(d));
  }
}

}  // namespace

Schedule cc_cube_complete_exchange(std::uint32_t d) {
  check_cube_dimension(d);
  Schedule s;
  s.name = "cc_cube_complete_exchange_d" + std::to_string(d);
  s.nodes = 1u << d;
  s.blocks = complete_exchange_blocks(s.nodes);
  for (std::uint32_t i = 0; i < d; ++i) {
    ScheduleStep step;
    step.label = "dimension " + std::to_string(i);
    for (std::uint32_t n = 0; n < s.nodes; ++n) {
      step.messages.push_back(ScheduledMessage{n, n ^ (1u << i), sent_along(d, n, i)});
    }
    s.steps.push_back(std::move(step));
  }
  return s;
}

Schedule calmant_complete_exchange(const CubeOnMesh& cube, std::uint32_t q) {
  const std::uint32_t d = cube.d;
  const std::uint32_t half = 1u << (d - 1);  // blocks of each x_i
  if (q == 0 || half % q != 0) {
    throw std::invalid_argument("complete exchange: Q must divide 2^(d-1) = " +
                                std::to_string(half) + ", not " + std::to_string(q));
  }
  const std::uint32_t per_packet = half / q;
  Schedule s;
  s.name = "calmant_complete_exchange_d" + std::to_string(d) + "_c" + std::to_string(cube.c) +
           "_q" + std::to_string(q);
  s.nodes = cube.nodes();
  s.blocks = complete_exchange_blocks(s.nodes);
  const auto mesh_block = [&cube](const Block& b) {
    return Block{cube.node_of(b.origin), cube.node_of(b.destination), 0};
  };
  const std::vector<Iteration> iterations = pipeline_iterations(d, q);
  for (std::uint32_t t = 0; t < iterations.size(); ++t) {
    TaskSchedule ts = task_schedule(cube, iterations[t].task);
    for (ScheduleStep& step : ts.schedule.steps) {
      step.label = "it" + std::to_string(t) + " " + step.label;
      for (ScheduledMessage& m : step.messages) {
        const std::uint32_t n = cube.process_of(m.source);
        const std::uint32_t flipped = n ^ cube.process_of(m.destination);
        std::uint32_t k = 0;
        while ((1u << k) != flipped) {
          ++k;
        }
        const std::vector<Block> all = sent_along(d, n, k);
        const std::uint32_t packet = t - k;  // packet t - k of x_k
        m.blocks.clear();
        for (std::uint32_t b = packet * per_packet; b < (packet + 1) * per_packet; ++b) {
          m.blocks.push_back(mesh_block(all[b]));
        }
      }
      s.steps.push_back(std::move(step));
    }
  }
  return s;
}

Schedule direct_complete_exchange(const CubeOnMesh& cube) {
  Schedule s;
  s.name = "direct_complete_exchange_d" + std::to_string(cube.d) + "_c" + std::to_string(cube.c);
  s.nodes = cube.nodes();
  s.blocks = complete_exchange_blocks(s.nodes);
  for (std::uint32_t r = 1; r < s.nodes; ++r) {
    ScheduleStep step;
    step.label = "round " + std::to_string(r);
    for (std::uint32_t n = 0; n < s.nodes; ++n) {
      const Block b{cube.node_of(n), cube.node_of(n ^ r), 0};
      step.messages.push_back(ScheduledMessage{b.origin, b.destination, {b}});
    }
    s.steps.push_back(std::move(step));
  }
  return s;
}

}  // namespace orthosim::sw::calmant
