#include "routers/fattree_bitserial/bit_serial_fat_tree.hpp"

#include <algorithm>
#include <sstream>
#include <unordered_map>

#include "routers/fattree_bitserial/scheme_stream_generators.hpp"

namespace icn::bitserial {

namespace {

std::string switch_name(unsigned level, unsigned index) {
  return "s" + std::to_string(level) + "_" + std::to_string(index);
}

// Delivery-cycle clocks at which level-l switches see routing bits: NICs drive
// M at clock kFirstDrivePhase (after the generators' load clock), an up-going
// stream's M reaches level 1 one clock after the NIC drives it, and every switch
// adds two clocks (it drives M in place of the routing bit it removes, a clock
// after reading M; the link adds one), so its routing bit is read at
// up[l] = up[l-1] + 2. At the root every stream turns (no buffering bits), and
// a descending stream reaches each level two clocks after the level above.
std::vector<Cycle> up_decisions(unsigned height) {
  std::vector<Cycle> up(height + 1, 0);
  up[1] = BitSerialNic::kFirstDrivePhase + 2;  // M read one clock after it is driven, routing bit the next
  for (unsigned l = 2; l <= height; ++l) up[l] = up[l - 1] + 2;
  return up;
}

std::vector<Cycle> down_decisions(unsigned height) {
  const std::vector<Cycle> up = up_decisions(height);
  std::vector<Cycle> down(height + 1, 0);
  down[height] = up[height];
  for (unsigned l = height - 1; l >= 1; --l) down[l] = down[l + 1] + 2;
  return down;
}

}  // namespace

Cycle BitSerialFatTree::up_decision(unsigned height, unsigned level) { return up_decisions(height)[level]; }

// The default generator of each synchronisation scheme.
static std::function<std::unique_ptr<RouteStreamGenerator>(NodeId)> scheme_generator(SyncScheme scheme, unsigned h,
                                                                              BufferFill fill) {
  switch (scheme) {
    case SyncScheme::kPrefix: return [h](NodeId) { return std::make_unique<PrefixRouteStreamGenerator>(h); };
    case SyncScheme::kFlush:
    case SyncScheme::kStore: return [h](NodeId) { return std::make_unique<UnbufferedRouteStreamGenerator>(h); };
    case SyncScheme::kMidstream: break;
  }
  return [h, fill](NodeId) { return std::make_unique<BehaviouralRouteStreamGenerator>(h, fill); };
}

Cycle BitSerialFatTree::delivery_cycle_length(unsigned height) {
  // Every stream's M reaches its destination NIC one clock after the level-1
  // switches' down decision, whatever its turning height (that is what the
  // buffering bits are for), and its last message bit message_bits later; the
  // receiver acknowledges in that clock, and the acknowledge needs one clock
  // per link back to the source, at most 2H links. The delivery cycle ends with
  // the clock in which the latest acknowledge can arrive.
  const Cycle last_message_bit = down_decisions(height)[1] + 1 + BitSerialNic::message_bits(height);
  return last_message_bit + 2 * height + 1;
}

BitSerialFatTree::BitSerialFatTree(sc_core::sc_module_name name, const FatTreeShape& shape, BitSerialOptions options,
                                   CycleEngine& engine, TrafficLedger& ledger)
    : sc_module(name),
      shape_(shape),
      clock_(1, delivery_cycle_length(shape.height())),
      down_decision_(down_decisions(shape.height())) {
  const unsigned h = shape_.height();
  const NodeId n = shape_.leaves();
  if (!options.make_generator) options.make_generator = scheme_generator(options.scheme, h, options.buffer_fill);
  for (NodeId k = 0; k < n; ++k) {
    nics_.push_back(std::make_unique<BitSerialNic>(("nic" + std::to_string(k)).c_str(), BitSerialNic::Params{k, h},
                                                   clock_, ledger, counts_));
    nics_.back()->set_locality(FatTreeShape::subtree_order(0, k));
    engine.add(*nics_.back());
  }
  switches_.resize(h + 1);
  for (unsigned level = 1; level <= h; ++level) {
    for (unsigned j = 0; j < shape_.routers_at(level); ++j) {
      BitSerialSwitch::Params p;
      p.level = level;
      p.index = j;
      p.down_decision = down_decision_[level];
      p.policy = options.arbitration;
      p.seed = options.seed;
      p.rng_name = "fattree_bitserial." + switch_name(level, j);
      p.scheme = options.scheme;
      p.store_depth = static_cast<unsigned>(down_decision_[level] - up_decision(h, level));
      switches_[level].push_back(std::make_unique<BitSerialSwitch>(switch_name(level, j).c_str(), p, clock_));
      switches_[level].back()->set_locality(FatTreeShape::subtree_order(level, j));
      engine.add(*switches_[level].back());
    }
  }
  // Branch between child k at level l-1 and its parent k/2 at level l: c_l paths each way.
  for (unsigned level = 1; level <= h; ++level) {
    const unsigned width = shape_.capacity(level);
    for (unsigned k = 0; k < shape_.routers_at(level - 1); ++k) {
      Branch b;
      b.level = level;
      b.child = level == 1 ? "nic" + std::to_string(k) : switch_name(level - 1, k);
      b.parent = switch_name(level, k / 2);
      b.side = k % 2;
      b.up = &make_channel(b.child + ".up", width);
      b.up_ack = &make_channel(b.child + ".up.ack", width);
      b.down = &make_channel(b.parent + ".down" + std::to_string(b.side), width);
      b.down_ack = &make_channel(b.parent + ".down" + std::to_string(b.side) + ".ack", width);
      b.down_flush = nullptr;
      switches_[level][k / 2]->connect(kBranch0 + b.side, *b.up, *b.up_ack, *b.down, *b.down_ack);
      if (level > 1) switches_[level - 1][k]->connect(kTrunk, *b.down, *b.down_ack, *b.up, *b.up_ack);
      if (options.scheme == SyncScheme::kFlush) {
        b.down_flush = &make_channel(b.parent + ".down" + std::to_string(b.side) + ".flush", width);
        switches_[level][k / 2]->connect_flush(kBranch0 + b.side, *b.down_flush);
        if (level > 1) switches_[level - 1][k]->connect_trunk_flush(*b.down_flush);
      }
      branches_.push_back(b);
    }
  }
  // Each NIC's paths: branches_[k] is leaf k's (level 1 comes first). A wiring
  // fault crosses two leaves' down paths, with their acknowledgement paths.
  for (NodeId k = 0; k < n; ++k) {
    const Branch& own = branches_[k];
    const Branch& down = branches_[options.swap.wired_to(k)];
    auto make = options.make_generator;
    nics_[k]->attach(*own.up, *own.up_ack, *down.down, *down.down_ack, [make, k] { return make(k); });
    if (down.down_flush != nullptr) nics_[k]->attach_flush(*down.down_flush);
  }
}

BitChannel* BitSerialFatTree::channel(const std::string& name) {
  const std::string full = std::string(this->name()) + "." + name;
  for (BitChannel& c : channels_)
    if (c.name() == full) return &c;
  return nullptr;
}

std::uint64_t BitSerialFatTree::failed_link_requests(const std::string& name) const {
  const std::string full = std::string(this->name()) + "." + name;
  const BitChannel* channel = nullptr;
  for (const BitChannel& c : channels_)
    if (c.name() == full) channel = &c;
  if (channel == nullptr) return 0;
  // Only the block that drives a channel counts on it; the others answer 0.
  std::uint64_t requests = 0;
  for (const auto& nic : nics_) requests += nic->failed_requests(*channel);
  for (const auto& level : switches_)
    for (const auto& s : level) requests += s->failed_requests(*channel);
  return requests;
}

BitChannel& BitSerialFatTree::make_channel(const std::string& name, unsigned width) {
  channels_.emplace_back(std::string(this->name()) + "." + name, width, 1);
  return channels_.back();
}

std::vector<BitSerialLevelStats> BitSerialFatTree::level_stats() const {
  std::vector<BitSerialLevelStats> stats(shape_.height());
  for (unsigned level = 1; level <= shape_.height(); ++level) {
    BitSerialLevelStats& s = stats[level - 1];
    s.level = level;
    s.capacity = shape_.capacity(level);
    SwitchStats x;
    for (const auto& sw : switches_[level]) x += sw->stats();
    s.requests_up = x.requests_up;
    s.requests_down = x.requests_down;
    s.denials_up = x.denials_up;
    s.denials_down = x.denials_down;
    s.ignored_bits = x.ignored_bits;
    s.flushed = x.flushed;
    s.flushed_lost = x.flushed_lost;
    for (const auto& sw : switches_[level]) {
      s.storage_bits = std::max(s.storage_bits, sw->storage_bits());
      s.peak_stored_bits = std::max(s.peak_stored_bits, sw->peak_stored_bits());
      s.flush_wires = std::max(s.flush_wires, sw->flush_wires());
      s.late_requests += sw->late_requests();
      s.late_denials += sw->late_denials();
    }
    for (const auto& nic : nics_) s.stream_buffering_bits = std::max(s.stream_buffering_bits, nic->buffering_bits()[level]);
  }
  for (const Branch& b : branches_) {
    stats[b.level - 1].bits_up += b.up->bits_driven();
    stats[b.level - 1].bits_down += b.down->bits_driven();
  }
  return stats;
}

SwitchStats BitSerialFatTree::switch_totals() const {
  SwitchStats t;
  for (unsigned level = 1; level <= shape_.height(); ++level) {
    for (const auto& sw : switches_[level]) t += sw->stats();
  }
  return t;
}

namespace {

// The traced signals, in order, with their GTKWave display format and group.
enum class Group { up, down, switches };

struct TracedSignal {
  unsigned level;
  Group group;
  std::string name;
  int bits;
  std::function<std::uint32_t(Cycle)> probe;
};

std::vector<TracedSignal> traced_signals(const BitSerialFatTree& tree, const std::string& prefix) {
  std::vector<TracedSignal> out;
  const std::string net = std::string(tree.name()) + ".";
  auto local = [&](const BitChannel* c) { return c->name().substr(net.size()); };
  auto path_signals = [&](unsigned level, Group group, const BitChannel* data, const BitChannel* ack) {
    for (unsigned p = 0; p < data->width(); ++p) {
      const std::string base = prefix + ".level" + std::to_string(level) + "." + local(data) + ".p" + std::to_string(p);
      out.push_back({level, group, base + ".valid", 1, [data, p](Cycle t) { return (data->driven_in(t, p) >> 1) & 1u; }});
      out.push_back({level, group, base + ".bit", 1, [data, p](Cycle t) { return data->driven_in(t, p) & 1u; }});
      out.push_back({level, group, base + ".ack", 1, [ack, p](Cycle t) { return ack->driven_in(t, p) & 1u; }});
    }
  };
  for (unsigned level = 1; level <= tree.shape().height(); ++level) {
    for (const auto& b : tree.branches()) {
      if (b.level != level) continue;
      path_signals(level, Group::up, b.up, b.up_ack);
      path_signals(level, Group::down, b.down, b.down_ack);
    }
    for (unsigned j = 0; j < tree.shape().routers_at(level); ++j) {
      const BitSerialSwitch& sw = const_cast<BitSerialFatTree&>(tree).node(level, j);
      const std::string base = prefix + ".level" + std::to_string(level) + "." + switch_name(level, j);
      // from_path names an input path: as wide as the widest input port needs (the trunk's, below the root).
      unsigned inputs = 1;
      for (unsigned port = 0; port < kPorts; ++port)
        if (sw.has_port(port)) inputs = std::max(inputs, sw.input(port)->width());
      for (unsigned port = 0; port < kPorts; ++port) {
        if (!sw.has_port(port)) continue;
        const unsigned width = sw.output(port)->width();
        for (unsigned p = 0; p < width; ++p) {
          const std::string o = base + ".out_" + port_name(port) + ".p" + std::to_string(p);
          out.push_back({level, Group::switches, o + ".from_port", 2, [&sw, port, p](Cycle t) { return sw.output_source_port(port, p, t); }});
          out.push_back({level, Group::switches, o + ".from_path", bits_for(inputs > 1 ? inputs - 1 : 1),
                         [&sw, port, p](Cycle t) { return sw.output_source_path(port, p, t); }});
        }
        for (unsigned p = 0; p < sw.input(port)->width(); ++p) {
          const std::string i = base + ".in_" + port_name(port) + ".p" + std::to_string(p) + ".state";
          out.push_back({level, Group::switches, i, 3, [&sw, port, p](Cycle t) { return sw.input_state(port, p, t); }});
        }
      }
    }
  }
  return out;
}

// One row of a save file, after its format line if it changes (`last_format`).
std::string row_line(const TracedSignal& s, const std::string& level_prefix, std::string& last_format) {
  std::string g;
  const std::string format = s.bits == 1 ? "@28" : "@24";  // binary / decimal
  if (format != last_format) g += format + "\n";
  last_format = format;
  // The row's label: "icnsim.level1.s1_0.down0.p0.bit" -> "L1/s1_0/down0/p0/bit". Not dots:
  // GTKWave cuts every displayed name at its dots down to the last level ("bit").
  std::string label = s.name;
  if (label.rfind(level_prefix, 0) == 0) label = "L" + label.substr(level_prefix.size());
  for (char& c : label)
    if (c == '.') c = '/';
  g += "+{" + label + "} SystemC." + s.name;
  if (s.bits > 1) g += "[" + std::to_string(s.bits - 1) + ":0]";
  return g + "\n";
}

}  // namespace

std::string BitSerialFatTree::save_rows(const std::string& prefix, const std::string& title,
                                        const std::vector<std::string>& names) const {
  const auto signals = traced_signals(*this, prefix);
  std::unordered_map<std::string, std::size_t> index;
  for (std::size_t i = 0; i < signals.size(); ++i) index.emplace(signals[i].name, i);
  std::string g = "@800200\n-" + title + "\n", last_format;
  for (const std::string& name : names)
    if (const auto it = index.find(name); it != index.end()) g += row_line(signals[it->second], prefix + ".level", last_format);
  return g + "@1000200\n-" + title + "\n";
}

void BitSerialFatTree::trace(WaveformTracer& tracer, const std::string& prefix) const {
  if (follower_)  // a save file per followed message, written when the run has ended
    for (const auto& f : follower_->followed())
      tracer.add_save_file(WaveformTracer::packet_save_file_for(tracer.path(), f.message.id),
                           [this, &tracer, prefix, id = f.message.id] { return packet_save_file(tracer, prefix, id); });
  for (auto& s : traced_signals(*this, prefix)) tracer.add(s.name, s.bits, std::move(s.probe));
}

std::string BitSerialFatTree::gtkwave_save_file(const std::string& prefix, const std::string& vcd_path) const {
  // The dump file by its base name: GTKWave looks for it beside the save file,
  // and `gtkwave FILE.vcd FILE.gtkw` names it anyway.
  const std::string vcd = vcd_path.substr(vcd_path.find_last_of('/') + 1);
  std::ostringstream g;
  g << "[*] GTKWave save file for an icnsim bit-serial fat tree (network.type=fattree_bitserial)\n"
    << "[*] Open with: gtkwave " << vcd << " <this file>\n"
    << "[*] Rows are named L<level>/<block>/<port>/p<path>/<wire>. Groups follow a message's route\n"
    << "[*] down the screen: the paths up, level 1 to the root, then the paths down, root to level 1;\n"
    << "[*] per path valid, bit and ack (reverse wire). Then per level the switch settings: per\n"
    << "[*] output path from_port (0 free, 1 trunk, 2 branch0, 3 branch1) and from_path, per input\n"
    << "[*] path its state (0 idle, 1 routing, 3 held, 4 connected, 5 lost).\n"
    << "[dumpfile] \"" << vcd << "\"\n"
    << "[timestart] 0\n"
    << "[size] 1400 900\n"
    << "@24\n"
    << "+{cycle} SystemC.cycle[31:0]\n";
  const auto signals = traced_signals(*this, prefix);
  const unsigned h = shape_.height();
  // The groups in route order: (group, level).
  std::vector<std::pair<Group, unsigned>> order;
  for (unsigned l = 1; l <= h; ++l) order.emplace_back(Group::up, l);
  for (unsigned l = h; l >= 1; --l) order.emplace_back(Group::down, l);
  for (unsigned l = 1; l <= h; ++l) order.emplace_back(Group::switches, l);
  const std::string level_prefix = prefix + ".level";
  for (const auto& [group, level] : order) {
    const std::string title = (group == Group::up     ? "up, level "
                               : group == Group::down ? "down, level "
                                                      : "switch settings, level ") +
                              std::to_string(level);
    g << "@800200\n-" << title << "\n";
    std::string last_format;
    for (const auto& s : signals)
      if (s.group == group && s.level == level) g << row_line(s, level_prefix, last_format);
    g << "@1000200\n-" << title << "\n";
  }
  return g.str();
}

std::string BitSerialFatTree::where_streams_vanish() const {
  std::string where;
  const std::string prefix = std::string(name()) + ".";
  auto add = [&](const std::string& wire, const char* fault, std::uint64_t n, bool ack) {
    // Named as network.failed_links and network.stuck_bits name them.
    const std::string shown = wire.compare(0, prefix.size(), prefix) == 0 ? wire.substr(prefix.size()) : wire;
    where += (where.empty() ? "" : ", ") + shown + " (" + fault + "): " + std::to_string(n) +
             (ack ? " acknowledge(s)" : " stream(s)");
  };
  for (const BitChannel& c : channels_) {
    if (c.swallowed() == 0) continue;
    const bool ack = c.name().size() > 4 && c.name().compare(c.name().size() - 4, 4, ".ack") == 0;
    if (c.failed()) {
      add(c.name(), "cut", c.swallowed(), ack);
      continue;
    }
    for (unsigned p = 0; p < c.width(); ++p)
      if (c.swallowed(p) != 0) add(c.name() + ".p" + std::to_string(p), "stuck at 0", c.swallowed(p), ack);
  }
  return where;
}

}  // namespace icn::bitserial
