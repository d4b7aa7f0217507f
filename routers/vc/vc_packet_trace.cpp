// The per-packet save files of outputs.trace_packet: the rows a followed
// packet crossed, in path order, written beside the waveform when the run
// ends (the path is known only then).
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

}  // namespace

std::string VcNetwork::packet_save_file(const WaveformTracer& tracer, const std::string& prefix, std::uint32_t id) const {
  const PacketFollower::Path* path = follower_ ? follower_->find_const(id) : nullptr;
  std::ostringstream g;
  const std::string dump = tracer.path().substr(tracer.path().find_last_of('/') + 1);
  g << "[*] GTKWave save file written by icnsim: packet " << id << " (outputs.trace_packet) in " << dump << "\n"
    << "[*] Open with: gtkwave " << dump << " <this file>\n";
  if (path == nullptr || path->injected == kNever) {
    g << "[*] Packet " << id << " was not injected in this run: nothing to show.\n"
      << "[dumpfile] \"" << dump << "\"\n";
    return g.str();
  }
  g << "[dumpfile] \"" << dump << "\"\n[size] 1400 900\n";
  const bool delivered = path->tail_ejected != kNever;
  g << "[*] " << path->src << " -> " << path->dst << ": injected (head) in cycle " << path->injected << " on VC "
    << path->inject_vc << "; "
    << (delivered ? "head ejected " + std::to_string(path->head_ejected) + ", tail " + std::to_string(path->tail_ejected)
                   : std::string("not delivered when the run ended"))
    << ". Marker A: injection, B: ejection.\n";
  for (std::size_t i = 0; i < path->hops.size(); ++i) {
    const auto& h = path->hops[i];
    g << "[*] hop " << i + 1 << ": " << topo_.router_name(h.router) << " in " << topo_.port_name(h.router, h.in_port)
      << " vc" << h.in_vc << " -> out " << topo_.port_name(h.router, h.out_port) << " vc" << h.out_vc << ": "
      << cycles_text(h) << "\n";
  }
  const Cycle first = path->injected > 4 ? path->injected - 4 : 0;
  const Cycle last = (delivered ? path->tail_ejected : path->injected) + 4;
  g << tracer.window_lines(first, last, {path->injected, delivered ? path->head_ejected : kNever});
  // Rows in path order: the source NIC's injection link, then per router the
  // input VC the head waited in and the output it left on, then the
  // destination NIC's ejection link.
  const std::string nic_src = prefix + ".nic" + std::to_string(path->src);
  std::vector<std::pair<std::string, std::vector<std::string>>> groups;
  auto bus = [](const std::string& scope) {
    std::vector<std::string> rows;
    for (const char* f : {"valid", "vc", "head", "tail", "packet", "src", "dst"}) rows.push_back(scope + ".flit." + f);
    return rows;
  };
  groups.push_back({"nic" + std::to_string(path->src) + "/inject", bus(nic_src + ".inject")});
  for (const auto& h : path->hops) {
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
  groups.push_back({"nic" + std::to_string(path->dst) + "/eject", bus(prefix + ".nic" + std::to_string(path->dst) + ".eject")});
  for (const auto& [title, rows] : groups) g << tracer.rows_text(title, rows);
  return g.str();
}

}  // namespace icn::vc
