// The per-packet save files of outputs.trace_packet: the rows a followed
// packet crossed, in path order, written beside the waveform when the run
// ends (the path is known only then).
//
// A replicated message (HPAM) is a tree of copies; the save file follows the
// copy to one destination, the one it reached last (the latest tail
// ejection; ties: the lowest node), walking back from that copy through the
// replicators that made it to the injected packet.
#include <algorithm>
#include <sstream>

#include "routers/vc/vc_network.hpp"

namespace icn::vc {

namespace {

std::string cycles_text(const PacketFollower::Hop& h) {
  std::ostringstream s;
  s << "buffered " << h.arrived << ", routed " << h.routed << ", VC granted " << h.vc_granted << ", switch granted "
    << h.switch_granted << ", sent " << h.sent << " (stages: routing " << h.routed - h.arrived << ", vc_alloc "
    << h.vc_granted - h.routed << ", sw_alloc " << h.switch_granted - h.vc_granted << ", traversal "
    << h.sent - h.switch_granted << ")";
  return s.str();
}

using Copy = PacketFollower::Copy;

// The copy the save file follows: of the copies that end the tree (not
// replicated further), the delivered one whose tail reached its NIC last,
// ties to the lowest node; if none was delivered, the first of them.
std::size_t followed_copy(const std::vector<Copy>& copies) {
  std::size_t best = copies.size();
  for (std::size_t i = 0; i < copies.size(); ++i) {
    const Copy& c = copies[i];
    if (c.replicated || c.tail_ejected == kNever) continue;
    if (best == copies.size() || c.tail_ejected > copies[best].tail_ejected ||
        (c.tail_ejected == copies[best].tail_ejected && c.dst < copies[best].dst))
      best = i;
  }
  if (best != copies.size()) return best;
  for (std::size_t i = 0; i < copies.size(); ++i)
    if (!copies[i].replicated) return i;
  return 0;
}

// Indices from the injected packet down to copy `leaf`.
std::vector<std::size_t> chain_to(const std::vector<Copy>& copies, std::size_t leaf) {
  std::vector<std::size_t> chain;
  for (int i = static_cast<int>(leaf); i >= 0; i = copies[static_cast<std::size_t>(i)].parent)
    chain.push_back(static_cast<std::size_t>(i));
  std::reverse(chain.begin(), chain.end());
  return chain;
}

}  // namespace

std::string VcNetwork::packet_save_file(const WaveformTracer& tracer, const std::string& prefix, std::uint32_t id) const {
  const PacketFollower::Path* path = follower_ ? follower_->find_const(id) : nullptr;
  std::ostringstream g;
  const std::string dump = tracer.path().substr(tracer.path().find_last_of('/') + 1);
  g << "[*] GTKWave save file written by icnsim: packet " << id << " (outputs.trace_packet) in " << dump << "\n"
    << "[*] Open with: gtkwave " << dump << " <this file>\n";
  if (path == nullptr || path->injected == kNever || path->copies.empty()) {
    g << "[*] Packet " << id << " was not injected in this run: nothing to show.\n"
      << "[dumpfile] \"" << dump << "\"\n";
    return g.str();
  }
  g << "[dumpfile] \"" << dump << "\"\n[size] 1400 900\n";
  const std::vector<Copy>& copies = path->copies;
  const std::size_t leaf = followed_copy(copies);
  const Copy& last = copies[leaf];
  const NodeId dst = last.dst;
  const bool delivered = last.tail_ejected != kNever;
  const bool absorbed = last.absorbed != kNever;
  g << "[*] " << path->src << " -> " << dst << ": injected (head) in cycle " << path->injected << " on VC "
    << path->inject_vc << "; "
    << (delivered ? "head ejected " + std::to_string(last.head_ejected) + ", tail " + std::to_string(last.tail_ejected)
        : absorbed ? "taken whole by the combiner in cycle " + std::to_string(last.absorbed) +
                         " (the combined message it joins is a packet of its own)"
                   : std::string("not delivered when the run ended"))
    << ". Marker A: injection, B: ejection.\n";
  if (copies.size() > 1) {
    // The whole tree in one line: every destination and its ejection cycles.
    std::vector<std::pair<NodeId, std::size_t>> reached;
    for (std::size_t i = 0; i < copies.size(); ++i)
      if (!copies[i].replicated) reached.push_back({copies[i].dst, i});
    std::sort(reached.begin(), reached.end());
    g << "[*] replicated into " << reached.size() << " copies; followed: the copy to " << dst
      << " (the destination it reached last: latest tail ejection, ties to the lowest node). Destinations (node: "
         "head ejected, tail ejected):";
    for (const auto& [node, i] : reached) {
      g << " " << node << ": ";
      if (copies[i].tail_ejected == kNever) g << "not delivered;";
      else g << copies[i].head_ejected << ", " << copies[i].tail_ejected << ";";
    }
    g << "\n";
  }
  const std::vector<std::size_t> chain = chain_to(copies, leaf);
  std::size_t hop = 0;
  Cycle end = path->injected;
  for (std::size_t i : chain) {
    const Copy& c = copies[i];
    if (c.parent >= 0) {
      const Copy& up = copies[static_cast<std::size_t>(c.parent)];
      g << "[*] replicator " << c.replicator << ": head in (on in) " << (up.hops.empty() ? kNever : up.hops.back().sent)
        << ", taken " << c.taken << ", sent down branch" << c.branch << " in " << c.branch_sent << " (to "
        << c.dst << ")\n";
      end = std::max(end, c.branch_sent == kNever ? c.taken : c.branch_sent);
    }
    for (const auto& h : c.hops) {
      g << "[*] hop " << ++hop << ": " << topo_.router_name(h.router) << " in " << topo_.port_name(h.router, h.in_port)
        << " vc" << h.in_vc << " -> out " << topo_.port_name(h.router, h.out_port) << " vc" << h.out_vc << ": "
        << cycles_text(h) << "\n";
      end = std::max(end, h.sent);
    }
  }
  const Cycle first = path->injected > 4 ? path->injected - 4 : 0;
  // The window ends with the followed copy: its tail out, else where it ended
  // (a combiner), else the last thing recorded (a plain VC packet that never
  // arrived: its injection, as before).
  const Cycle stop = (delivered ? last.tail_ejected : absorbed ? last.absorbed : copies.size() > 1 ? end : path->injected) + 4;
  g << tracer.window_lines(first, stop, {path->injected, delivered ? last.head_ejected : kNever});
  // Rows in path order: the source NIC's injection link, then per router the
  // input VC the head waited in and the output it left on (and, where a
  // replicator made the copy, its input and the branch it took), then the
  // destination NIC's ejection link.
  const std::string nic_src = prefix + ".nic" + std::to_string(path->src);
  std::vector<std::pair<std::string, std::vector<std::string>>> groups;
  auto bus = [](const std::string& scope) {
    std::vector<std::string> rows;
    for (const char* f : {"valid", "vc", "head", "tail", "packet", "src", "dst"}) rows.push_back(scope + ".flit." + f);
    return rows;
  };
  groups.push_back({"nic" + std::to_string(path->src) + "/inject", bus(nic_src + ".inject")});
  for (std::size_t i : chain) {
    const Copy& c = copies[i];
    if (c.parent >= 0) {
      groups.push_back({c.replicator + "/in", bus(prefix + "." + c.replicator + ".in")});
      const std::string branch = "branch" + std::to_string(c.branch);
      groups.push_back({c.replicator + "/" + branch, bus(prefix + "." + c.replicator + "." + branch)});
    }
    for (const auto& h : c.hops) {
      const std::string r = prefix + "." + topo_.router_name(h.router) + ".";
      const std::string in = r + topo_.port_name(h.router, h.in_port) + ".in.vc" + std::to_string(h.in_vc);
      const std::string out = r + topo_.port_name(h.router, h.out_port) + ".out";
      const std::string where = topo_.router_name(h.router) + "/";
      groups.push_back({where + topo_.port_name(h.router, h.in_port) + "/in/vc" + std::to_string(h.in_vc),
                        {in + ".occupancy", in + ".state"}});
      if (topo_.neighbor(h.router, h.out_port)) {
        auto rows = bus(out);
        rows.push_back(out + ".sw_grant");
        rows.push_back(out + ".credits_vc" + std::to_string(h.out_vc));
        groups.push_back({where + topo_.port_name(h.router, h.out_port) + "/out", rows});
      }
    }
  }
  if (!absorbed)
    groups.push_back({"nic" + std::to_string(dst) + "/eject", bus(prefix + ".nic" + std::to_string(dst) + ".eject")});
  for (const auto& [title, rows] : groups) g << tracer.rows_text(title, rows);
  return g.str();
}

}  // namespace icn::vc
