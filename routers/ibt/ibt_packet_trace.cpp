// The per-packet save files of outputs.trace_packet for the torus and iBT: a
// packet number's route from the source to one node, link by link, written
// beside the waveform when the run ends (the route is known only then).
#include <algorithm>
#include <sstream>

#include "routers/ibt/ibt_network.hpp"

namespace icn::ibt {

namespace {

// Whether the waveform has this row (outputs.trace_routers may have left it out).
bool in_waveform(const WaveformTracer& tracer, const std::string& row) {
  return tracer.rows_text("", {row}).find("+{") != std::string::npos;
}

std::string dump_name(const WaveformTracer& tracer) {
  return tracer.path().substr(tracer.path().find_last_of('/') + 1);
}

std::string header(const WaveformTracer& tracer, std::uint32_t id) {
  const std::string dump = dump_name(tracer);
  return "[*] GTKWave save file written by icnsim: packet " + std::to_string(id) + " (outputs.trace_packet) in " +
         dump + "\n[*] Open with: gtkwave " + dump + " <this file>\n";
}

}  // namespace

std::string unsent_packet_save_file(const WaveformTracer& tracer, std::uint32_t id, const std::string& why) {
  return header(tracer, id) + "[*] Packet " + std::to_string(id) + " was not sent in this run (" + why +
         "): nothing to show.\n[dumpfile] \"" + dump_name(tracer) + "\"\n";
}

// The node a followed packet is shown to: of the routers in the waveform
// that took it, the one it reached last (ties: the lowest node id); the
// source if none did.
NodeId IbtNetwork::follow_destination(const WaveformTracer& tracer, const BroadcastFollower::Route& r) const {
  NodeId best = r.source;
  Cycle latest = 0;
  for (NodeId x = 0; x < topology_.nodes(); ++x) {
    if (x == r.source || !traced_[x]) continue;
    const BroadcastFollower::Arrival a = BroadcastFollower::arrival(r, x);
    if (a.port != BroadcastFollower::kNone && a.cycle > latest &&
        in_waveform(tracer, trace_prefix_ + "." + router_name(topology_, x) + ".held")) {
      best = x;
      latest = a.cycle;
    }
  }
  return best;
}

std::string IbtNetwork::packet_save_file(const WaveformTracer& tracer, std::uint32_t id) const {
  const BroadcastFollower::Route* r = follower_ ? follower_->find(id) : nullptr;
  if (r == nullptr || r->source == kNoNode)
    return unsent_packet_save_file(tracer, id, "the broadcast's packets are numbered 0.." + std::to_string(shared_.packets - 1));
  const std::string prefix = trace_prefix_ + ".";
  auto name = [&](NodeId x) { return router_name(topology_, x); };
  // Walk back from the destination: each router took the packet from the
  // neighbour on its arrival port, which sent it one cycle earlier.
  struct Hop {
    NodeId from, to;
    unsigned port;  // the sender's output port
    Cycle sent;
  };
  std::vector<Hop> hops;
  const NodeId dst = follow_destination(tracer, *r);
  for (NodeId y = dst; y != r->source && hops.size() < topology_.nodes();) {
    const BroadcastFollower::Arrival a = BroadcastFollower::arrival(*r, y);
    if (a.port == BroadcastFollower::kNone || a.port == BroadcastFollower::kFromNic) break;  // cannot happen: y took it
    const NodeId x = topology_.neighbour(y, a.port);
    hops.push_back(Hop{x, y, a.port ^ 1u, a.cycle - 1});
    y = x;
  }
  std::reverse(hops.begin(), hops.end());
  const Cycle arrived = hops.empty() ? kNever : hops.back().sent;

  std::ostringstream g;
  const std::string dump = dump_name(tracer);
  g << header(tracer, id) << "[dumpfile] \"" << dump << "\"\n[size] 1400 900\n";
  g << "[*] Packet " << id << " (colour " << r->colour + 1 << ") of the broadcast from " << name(r->source) << " (node "
    << r->source << "): its NIC wrote it into the router's buffer in cycle " << r->injected << " (marker A).\n";
  if (hops.empty()) {
    g << "[*] No other router in the waveform took it.\n";
  } else {
    g << "[*] A broadcast packet reaches every node of its group; shown here: its route to " << name(dst) << " (node "
      << dst << "), the router in the waveform it reached last, over " << hops.size() << " link(s), the last in cycle "
      << arrived << " (marker B). Each router forwards the copy it took first: the route is the chain of first "
         "arrivals.\n";
  }
  for (std::size_t i = 0; i < hops.size(); ++i) {
    const Hop& h = hops[i];
    const std::string port = topology_.port_name(h.port);
    g << "[*] hop " << i + 1 << ": " << name(h.from) << " " << port << " -> " << name(h.to) << ", sent in cycle "
      << h.sent;
    if (!in_waveform(tracer, prefix + name(h.from) + "." + vcd_port(h.port) + ".pkt.valid"))
      g << " (not in the waveform: " << name(h.from) << " is not among the traced routers)";
    g << "\n";
  }
  const Cycle first = r->injected > 4 ? r->injected - 4 : 0;
  g << tracer.window_lines(first, (hops.empty() ? r->injected : arrived) + 4, {r->injected, arrived});
  // Rows in route order: the source NIC's injections, each link's packet bus
  // and queue, then what the destination holds and ejects.
  const std::string src = prefix + name(r->source);
  g << tracer.rows_text(name(r->source) + "/nic/inject", {src + ".nic.inject.count", src + ".nic.inject.total"});
  for (const Hop& h : hops) {
    const std::string port = prefix + name(h.from) + "." + vcd_port(h.port);
    std::vector<std::string> rows;
    for (const char* f : kPacketBusFields) rows.push_back(port + ".pkt." + f);
    rows.push_back(port + ".queue");
    g << tracer.rows_text(name(h.from) + "/" + topology_.port_name(h.port), rows);
  }
  if (!hops.empty()) {
    const std::string d = prefix + name(dst);
    g << tracer.rows_text(name(dst), {d + ".held", d + ".eject.count"});
  }
  return g.str();
}

}  // namespace icn::ibt
