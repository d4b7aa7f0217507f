// The packet fat tree's waveform rows (`--vcd`) and the per-packet save
// files of outputs.trace_packet (written when the run ends: a packet's path
// is known only then).
#include <algorithm>
#include <sstream>

#include "routers/fattree_packet/fat_tree_network.hpp"

namespace icn::fattree {

namespace {

// Physical links of a channel traced one by one; a wider channel shows its
// first ones and the count of all it started (`sent`).
constexpr unsigned kTracedLinks = 8;

// The packet physical link `link` of a channel carries in cycle t (sent then,
// read from the delay line at the end of the cycle), or kNoPacket. The links
// are numbered in the order the cycle's transfers were started, which is how
// the sender takes its free links.
PacketId sent_on(const Channel* c, Cycle t, unsigned link) {
  PacketId found = kNoPacket;
  unsigned i = 0;
  c->sent(t, [&](PacketId p) {
    if (i++ == link) found = p;
  });
  return found;
}

std::string slashed(std::string name) {
  std::replace(name.begin(), name.end(), '.', '/');
  return name;
}

}  // namespace

void FatTreeNetwork::follow(const std::vector<std::uint32_t>& messages) {
  if (messages.empty()) return;
  follower_ = std::make_unique<PacketFollower>(messages);
  for (auto& nic : nics_) nic->set_follower(follower_.get());
  for (auto& level : routers_)
    for (auto& r : level) r->set_follower(follower_.get());
}

std::string FatTreeNetwork::bus_scope(const TracedChannel& t, unsigned link) const {
  return t.scope + (t.width == 1 ? std::string() : ".link" + std::to_string(link)) + ".pkt";
}

// One channel's rows, in one save-file group: the queue that drives it, the
// count of transfers it started (wide channels), and per physical link the
// packet it carries in the cycle: valid, the message id (the ledger's),
// source and destination node (all ones for a broadcast).
void FatTreeNetwork::trace_channel(WaveformTracer& tracer, const Channel* c, TracedChannel t, const PacketQueue* q) {
  using Radix = TraceRow::Radix;
  t.width = c->width();
  t.links = std::min(t.width, kTracedLinks);
  auto row = [&](const std::string& label, Radix radix) { return TraceRow{t.title, label, radix, ""}; };
  tracer.add(t.queue, 16, [q](Cycle) { return static_cast<std::uint32_t>(std::min<std::size_t>(q->size(), 0xffff)); },
             row(t.queue_label, Radix::kDecimal));
  if (t.width > 1)
    tracer.add(t.scope + ".sent", bits_for(t.width), [c](Cycle now) { return c->sent_in(now); },
               row(t.label + "/sent", Radix::kDecimal));
  const PacketPool* pool = &pool_;
  const int node_bits = bits_for(shape_.leaves() - 1);
  const int dst_bits = bits_for(shape_.leaves());  // room for all ones: a broadcast's
  const std::uint32_t everyone = (1u << dst_bits) - 1;
  for (unsigned i = 0; i < t.links; ++i) {
    const std::string bus = bus_scope(t, i);
    const std::string label = t.label + (t.width == 1 ? std::string() : "/link" + std::to_string(i)) + "/pkt/";
    auto field = [c, i, pool](auto get) {
      return [c, i, pool, get](Cycle now) -> std::uint32_t {
        const PacketId id = sent_on(c, now, i);
        return id == kNoPacket ? 0u : get((*pool)[id]);
      };
    };
    tracer.add(bus + ".valid", 1, [c, i](Cycle now) { return c->sent_in(now) > i ? 1u : 0u; },
               row(label + "valid", Radix::kBinary));
    tracer.add(bus + ".packet", 32, field([](const Packet& p) { return p.message; }), row(label + "packet", Radix::kDecimal));
    tracer.add(bus + ".src", node_bits, field([](const Packet& p) { return p.src; }), row(label + "src", Radix::kDecimal));
    tracer.add(bus + ".dst", dst_bits,
               field([everyone](const Packet& p) { return p.broadcast() ? everyone : static_cast<std::uint32_t>(p.dst); }),
               row(label + "dst", Radix::kDecimal));
  }
  traced_.emplace(c, std::move(t));
}

// Channels in the order a message's route runs down the screen: the NICs'
// links up (injection), the up channels level by level, the down channels
// from the root, and the level-1 down channels into the NICs (ejection).
// Rows are named <prefix>.level<l>.<channel>, the channel after the block it
// leaves (r2_1.up, r1_0.down1, nic3.up).
void FatTreeNetwork::trace(WaveformTracer& tracer, const std::string& prefix) {
  if (follower_)
    for (const auto& [id, path] : follower_->paths())
      tracer.add_save_file(WaveformTracer::packet_save_file_for(tracer.path(), id),
                           [this, &tracer, id = id] { return packet_save_file(tracer, id); });
  const std::size_t net = std::string(name()).size() + 1;
  auto at = [&](unsigned level, const Channel* c) {
    TracedChannel t;
    const std::string channel = c->name().substr(net);
    t.scope = prefix + ".level" + std::to_string(level) + "." + channel;
    t.label = "level" + std::to_string(level) + "/" + slashed(channel);
    t.title = t.label;
    t.queue = t.scope + ".queue";
    t.queue_label = t.label + "/queue";
    return t;
  };
  const unsigned h = shape_.height();
  for (NodeId k = 0; k < shape_.leaves(); ++k) {
    TracedChannel t = at(0, up_[0][k]);
    const std::string nic = "nic" + std::to_string(k);
    t.title = nic + "/inject (" + t.label + ")";
    t.label = nic + "/inject";
    t.queue = t.scope + ".source_queue";
    t.queue_label = nic + "/inject/source_queue";
    trace_channel(tracer, up_[0][k], t, &nics_[k]->injection_queue());
  }
  for (unsigned level = 1; level < h; ++level)
    for (std::size_t j = 0; j < up_[level].size(); ++j)
      trace_channel(tracer, up_[level][j], at(level, up_[level][j]), &routers_[level][j]->output(kUp).queue());
  for (unsigned level = h; level >= 1; --level)
    for (std::size_t k = 0; k < down_[level].size(); ++k) {
      TracedChannel t = at(level, down_[level][k]);
      if (level == 1) {
        const std::string nic = "nic" + std::to_string(ejects_to_[k]);
        t.title = nic + "/eject (" + t.label + ")";
        t.label = nic + "/eject";
      }
      trace_channel(tracer, down_[level][k], t, &routers_[level][k / 2]->output(kDown0 + k % 2).queue());
    }
}

// The rows a followed packet crossed, in path order: per channel (its source
// NIC's link up first, its destination's ejection link last) the queue it
// waited in and the physical link it left on; the window around its life,
// marker A at its injection and B at its delivery; a comment per hop.
std::string FatTreeNetwork::packet_save_file(const WaveformTracer& tracer, std::uint32_t id) const {
  const PacketFollower::Path* path = follower_ ? follower_->path(id) : nullptr;
  std::ostringstream g;
  const std::string dump = tracer.path().substr(tracer.path().find_last_of('/') + 1);
  g << "[*] GTKWave save file written by icnsim: packet " << id << " (outputs.trace_packet) in " << dump << "\n"
    << "[*] Open with: gtkwave " << dump << " <this file>\n";
  if (path == nullptr || path->injected() == kNever) {
    g << "[*] Packet " << id << " was not injected in this run: nothing to show.\n"
      << "[dumpfile] \"" << dump << "\"\n";
    return g.str();
  }
  g << "[dumpfile] \"" << dump << "\"\n[size] 1400 900\n";
  const Cycle injected = path->injected();
  Cycle delivered = kNever, last = injected;  // the last copy's delivery; the last cycle it was seen
  for (const auto& e : path->ejections) {
    delivered = delivered == kNever ? e.arrived : std::max(delivered, e.arrived);
    last = std::max(last, e.arrived);
  }
  const bool broadcast = path->dst == kBroadcastDestination;
  g << "[*] " << path->src << " -> " << (broadcast ? std::string("all") : std::to_string(path->dst))
    << ": injected in cycle " << injected << ", "
    << (delivered == kNever ? std::string("not delivered when the run ended")
                            : std::string(broadcast ? "the last copy " : "") + "delivered at the end of cycle " +
                                  std::to_string(delivered))
    << ". Marker A: injection, B: delivery.\n";
  std::vector<std::pair<std::string, std::vector<std::string>>> groups;
  for (std::size_t i = 0; i < path->hops.size(); ++i) {
    const auto& hop = path->hops[i];
    const TracedChannel& t = traced_.at(hop.channel);
    g << "[*] hop " << i + 1 << ": " << t.title << ": in " << t.queue_label << " from cycle " << hop.queued << ", ";
    if (hop.sent == kNever) {
      g << "still there when the run ended\n";
    } else {
      g << "sent in cycle " << hop.sent << " on link " << hop.link << " (waited " << hop.sent - hop.queued << ")\n";
      last = std::max(last, hop.sent);
    }
    std::vector<std::string> rows{t.queue};
    if (t.width > 1) rows.push_back(t.scope + ".sent");
    if (hop.sent != kNever && hop.link < t.links)
      for (const char* f : {"valid", "packet", "src", "dst"}) rows.push_back(bus_scope(t, hop.link) + "." + f);
    groups.push_back({"hop " + std::to_string(i + 1) + ": " + t.title, rows});
  }
  for (const auto& e : path->ejections)
    g << "[*] delivered to nic" << e.node << " at the end of cycle " << e.arrived << "\n";
  g << tracer.window_lines(injected > 4 ? injected - 4 : 0, last + 4, {injected, delivered});
  for (const auto& [title, rows] : groups) g << tracer.rows_text(title, rows);
  return g.str();
}

}  // namespace icn::fattree
