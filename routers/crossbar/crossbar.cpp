#include "routers/crossbar/crossbar.hpp"

#include <algorithm>
#include <stdexcept>
#include <string_view>

#include "models/link_address.hpp"

namespace icn::xbar {

CrossbarSwitch::CrossbarSwitch(std::string name, unsigned inputs, UnitPacketPool& pool, CycleEngine& engine)
    : Clocked(Phase::kNetwork), name_(std::move(name)), pool_(pool) {
  inputs_.resize(inputs);
  failed_inputs_.assign(inputs, false);
  for (unsigned i = 0; i < inputs; ++i) input_names_.push_back("input " + std::to_string(i));
  cut_.resize(inputs);
  input_wires_.resize(inputs);
  for (auto& lists : arrivals_) lists.resize(engine.threads());
  for (auto& link : inputs_) {
    link.set_strict(true);
    link.connect_receiver(*this);
  }
  engine.add(*this);
}

unsigned CrossbarSwitch::add_group() {
  outputs_.emplace_back();
  queues_.emplace_back();
  group_packets_.push_back(0);
  return static_cast<unsigned>(outputs_.size() - 1);
}

void CrossbarSwitch::add_output(unsigned group, Link<PacketId>* link, CrossbarSwitch* next, unsigned next_port,
                                std::string name, bool track_flows) {
  Output o;
  o.link = link;
  o.next = next;
  o.next_port = next_port;
  o.stats.name = std::move(name);
  o.stats.track_flows = track_flows;
  outputs_[group].push_back(std::move(o));
}

void CrossbarSwitch::send_in(unsigned port, Cycle now, PacketId id, unsigned worker) {
  if (failed_inputs_[port]) {
    cut_[port].push_back({id, now});
    return;
  }
  inputs_[port].send(now, id);
  input_wires_[port].packets += 1;
  input_wires_[port].units += pool_[id].units;
  arrivals_[(now + 1) & 1][worker].push_back(port);
}

void CrossbarSwitch::serve(unsigned group, Cycle now) {
  auto& queue = queues_[group];
  for (auto& out : outputs_[group]) {
    if (queue.empty()) break;
    if (out.failed || out.busy_until >= now) continue;
    const Waiting w = queue.front();
    activity_.sw_output.record(static_cast<unsigned>(queue.size()));  // this output's arbiter picks among the group's heads
    queue.pop_front();
    UnitPacket& p = pool_[w.id];
    activity_.buffer_reads += p.units;
    activity_.crossbar += p.units;
    // Grants come in cycle order, so the busy cycles not yet counted start at
    // the later of now and the end of what was counted.
    const Cycle last = now + p.units - 1;
    if (last + 1 > clock_counted_until_) {
      activity_.clocked_cycles += last + 1 - std::max(now, clock_counted_until_);
      clock_counted_until_ = last + 1;
    }
    if (out.next != nullptr) out.next->send_in(out.next_port, now, w.id, owner());  // the next switch owns the wire
    else out.link->send(now, w.id);
    out.busy_until = now + p.units - 1;
    out.stats.packets += 1;
    out.stats.busy_cycles += p.units;
    out.stats.wait_cycles += now - w.since;
    if (out.stats.track_flows) out.stats.flows.insert((static_cast<std::uint64_t>(p.src) << 32) | p.dst);
    p.waited += now - w.since;
    p.hops += 1;
    engine()->note_progress();
  }
}

Cycle CrossbarSwitch::tick(Cycle now) {
  // Heads already waiting go first (first come, first served), then this cycle's
  // arrivals in input-port order (independent of the order NICs were evaluated).
  std::vector<unsigned> served(waiting_groups_.begin(), waiting_groups_.end());
  for (unsigned g : served) serve(g, now);
  std::vector<std::uint32_t>& arrived = arrived_;
  arrived.clear();
  for (auto& list : arrivals_[now & 1]) {
    arrived.insert(arrived.end(), list.begin(), list.end());
    list.clear();
  }
  std::sort(arrived.begin(), arrived.end());
  arrived.erase(std::unique(arrived.begin(), arrived.end()), arrived.end());
  for (unsigned port : arrived) {
    inputs_[port].receive(now, [&](PacketId id) {
      const unsigned g = route_(pool_[id].dst);
      activity_.buffer_writes += pool_[id].units;
      queues_[g].push_back({id, now});
      ++group_packets_[g];
      for (auto& out : outputs_[g]) out.stats.max_queue = std::max<std::uint32_t>(out.stats.max_queue, static_cast<std::uint32_t>(queues_[g].size()));
      serve(g, now);
      if (!queues_[g].empty()) waiting_groups_.insert(g);
    });
  }
  Cycle next = kNever;
  for (auto it = waiting_groups_.begin(); it != waiting_groups_.end();) {
    if (queues_[*it].empty()) {
      it = waiting_groups_.erase(it);
      continue;
    }
    for (const auto& out : outputs_[*it])
      if (!out.failed) next = std::min(next, std::max(out.busy_until + 1, now + 1));
    ++it;
  }
  return next;
}

unsigned CrossbarSwitch::outputs() const {
  unsigned n = 0;
  for (const auto& group : outputs_) n += static_cast<unsigned>(group.size());
  return n;
}

void CrossbarSwitch::report_held(std::vector<HeldTraffic>& out) const {
  for (unsigned port = 0; port < cut_.size(); ++port) {
    if (cut_[port].empty()) continue;
    const UnitPacket& p = pool_[cut_[port].front().id];
    out.push_back({name_ + " " + input_names_[port] + " (failed link)", cut_[port].size(),
                   "packet " + std::to_string(p.seq) + " " + std::to_string(p.src) + " -> " + std::to_string(p.dst),
                   cut_[port].front().since});
  }
  for (unsigned g : waiting_groups_) {
    if (queues_[g].empty()) continue;
    const UnitPacket& p = pool_[queues_[g].front().id];
    out.push_back({name_ + " output " + outputs_[g].front().stats.name, queues_[g].size(),
                   "packet " + std::to_string(p.seq) + " " + std::to_string(p.src) + " -> " + std::to_string(p.dst),
                   queues_[g].front().since});
  }
}

CrossbarNetwork::CrossbarNetwork(const Shape& shape, UnitPacketPool& pool, CycleEngine& engine) : shape_(shape) {
  const unsigned a = shape.modules, b = shape.module_size, c = a > 1 ? shape.channels : 0;
  const std::string prefix = a == 1 ? "xbar" : "module";
  for (unsigned m = 0; m < a; ++m) {
    auto sw = std::make_unique<CrossbarSwitch>(a == 1 ? "xbar" : prefix + std::to_string(m), b + c, pool, engine);
    for (unsigned x = 0; x < b; ++x) sw->add_group();  // one group per processor port (linked in attach)
    if (c > 0) sw->add_group();                        // the up channels
    sw->set_locality(static_cast<std::uint64_t>(m) * b);  // beside its module's first processor
    switches_.push_back(std::move(sw));
  }
  if (a > 1) {
    auto global = std::make_unique<CrossbarSwitch>("global", a * c, pool, engine);
    CrossbarSwitch* g = global.get();
    for (unsigned m = 0; m < a; ++m) {
      const unsigned down = g->add_group();
      for (unsigned j = 0; j < c; ++j) {
        g->add_output(down, nullptr, switches_[m].get(), b + j, "down" + std::to_string(m) + "." + std::to_string(j), true);
      }
      for (unsigned j = 0; j < c; ++j) {
        switches_[m]->add_output(b, nullptr, g, m * c + j, "up" + std::to_string(m) + "." + std::to_string(j), true);
        g->name_input(m * c + j, "up" + std::to_string(m) + "." + std::to_string(j));
        switches_[m]->name_input(b + j, "down" + std::to_string(m) + "." + std::to_string(j));
      }
    }
    g->set_route([b](NodeId dst) { return dst / b; });
    switches_.push_back(std::move(global));
  }
  for (unsigned m = 0; m < a; ++m) {
    switches_[m]->set_route([m, b](NodeId dst) { return dst / b == m ? dst % b : b; });
  }
}

void CrossbarNetwork::attach(NodeId x, SinglePortNic& nic) {
  const unsigned b = shape_.module_size;
  CrossbarSwitch& sw = *switches_[x / b];
  nic.ejection().set_strict(true);
  nic.ejection().connect_receiver(nic);
  nic.set_locality(x);  // worker threads (run.threads) get runs of processors
  sw.add_output(x % b, &nic.ejection(), nullptr, 0, "pe" + std::to_string(x), false);
  sw.name_input(x % b, "pe" + std::to_string(x) + ".in");
}

void CrossbarNetwork::inject(NodeId x, Cycle now, PacketId id) {
  switches_[x / shape_.module_size]->send_in(x % shape_.module_size, now, id, 0);
}

std::string CrossbarLinkAddress::name() const {
  switch (kind) {
    case Kind::kInjection: return "pe" + std::to_string(index) + ".in";
    case Kind::kEjection: return "pe" + std::to_string(index) + ".out";
    case Kind::kUp: return "up" + std::to_string(index) + "." + std::to_string(channel);
    case Kind::kDown: return "down" + std::to_string(index) + "." + std::to_string(channel);
  }
  return "";
}

std::optional<CrossbarLinkAddress> CrossbarNetwork::parse_link(const std::string& name, const Shape& shape) {
  const NodeId processors = shape.modules * shape.module_size;
  const std::string_view s(name);
  const std::size_t dot = s.find('.');
  if (dot == std::string_view::npos) return std::nullopt;
  const std::string_view node = s.substr(0, dot), port = s.substr(dot + 1);
  CrossbarLinkAddress a;
  if (node.substr(0, 2) == "pe") {
    const auto x = parse_index(node.substr(2), processors - 1);
    if (!x || (port != "in" && port != "out")) return std::nullopt;
    a.kind = port == "in" ? CrossbarLinkAddress::Kind::kInjection : CrossbarLinkAddress::Kind::kEjection;
    a.index = *x;
    return a;
  }
  if (shape.modules == 1) return std::nullopt;
  const bool up = node.substr(0, 2) == "up", down = node.substr(0, 4) == "down";
  if (!up && !down) return std::nullopt;
  const auto m = parse_index(node.substr(up ? 2 : 4), shape.modules - 1);
  const auto j = parse_index(port, shape.channels - 1);
  if (!m || !j) return std::nullopt;
  a.kind = up ? CrossbarLinkAddress::Kind::kUp : CrossbarLinkAddress::Kind::kDown;
  a.index = *m;
  a.channel = *j;
  return a;
}

std::uint64_t CrossbarNetwork::failed_link_requests(const CrossbarLinkAddress& link) const {
  const unsigned b = shape_.module_size;
  switch (link.kind) {
    case CrossbarLinkAddress::Kind::kInjection:
      return switches_[link.index / b]->failed_input_requests(static_cast<unsigned>(link.index % b));
    case CrossbarLinkAddress::Kind::kEjection:
      return switches_[link.index / b]->group_requests(static_cast<unsigned>(link.index % b));
    case CrossbarLinkAddress::Kind::kUp:
      return switches_[link.index]->group_requests(b);
    case CrossbarLinkAddress::Kind::kDown:
      return switches_.back()->group_requests(static_cast<unsigned>(link.index));
  }
  return 0;
}

void CrossbarNetwork::fail(const CrossbarLinkAddress& link) {
  const unsigned b = shape_.module_size;
  switch (link.kind) {
    case CrossbarLinkAddress::Kind::kInjection:
      switches_[link.index / b]->fail_input(static_cast<unsigned>(link.index % b));
      return;
    case CrossbarLinkAddress::Kind::kEjection:
      switches_[link.index / b]->fail_output(static_cast<unsigned>(link.index % b), 0);
      return;
    case CrossbarLinkAddress::Kind::kUp:
      switches_[link.index]->fail_output(b, static_cast<unsigned>(link.channel));
      return;
    case CrossbarLinkAddress::Kind::kDown:
      switches_.back()->fail_output(static_cast<unsigned>(link.index), static_cast<unsigned>(link.channel));
      return;
  }
}

std::vector<const LinkStats*> CrossbarNetwork::inter_module_links() const {
  std::vector<const LinkStats*> out;
  if (shape_.modules == 1) return out;
  for (unsigned m = 0; m < shape_.modules; ++m)
    for (const auto& o : switches_[m]->groups()[shape_.module_size]) out.push_back(&o.stats);
  for (const auto& group : switches_.back()->groups())
    for (const auto& o : group) out.push_back(&o.stats);
  return out;
}

std::vector<const LinkStats*> CrossbarNetwork::ejection_links() const {
  std::vector<const LinkStats*> out;
  for (unsigned m = 0; m < shape_.modules; ++m)
    for (unsigned x = 0; x < shape_.module_size; ++x)
      for (const auto& o : switches_[m]->groups()[x]) out.push_back(&o.stats);
  return out;
}

}  // namespace icn::xbar
