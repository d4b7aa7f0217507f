// outputs.trace_packet on the bit-serial tree: the per-message save files
// (FILE.packet<ID>.gtkw), written when the run has ended from what the
// StreamFollower recorded as the NICs and switches moved the stream.
#include <algorithm>
#include <sstream>

#include "routers/fattree_bitserial/bit_serial_fat_tree.hpp"

namespace icn::bitserial {

namespace {

std::string switch_label(unsigned level, unsigned index) {
  return "s" + std::to_string(level) + "_" + std::to_string(index);
}

std::string port_path(unsigned port, unsigned path) { return std::string(port_name(port)) + " p" + std::to_string(path); }

}  // namespace

void BitSerialFatTree::follow(const std::vector<StreamFollower::Message>& messages) {
  if (messages.empty()) return;
  follower_ = std::make_unique<StreamFollower>(clock_, messages);
  for (auto& nic : nics_) nic->set_follower(follower_.get());
  for (auto& level : switches_)
    for (auto& s : level) s->set_follower(follower_.get());
}

std::string BitSerialFatTree::path_scope(const std::string& prefix, const BitChannel* c, unsigned path) const {
  const std::size_t net = std::string(name()).size() + 1;
  for (const Branch& b : branches_)
    if (b.up == c || b.down == c)
      return prefix + ".level" + std::to_string(b.level) + "." + c->name().substr(net) + ".p" + std::to_string(path);
  return "";
}

// The rows the shown attempt's stream crossed, in route order: the source
// NIC's up path, then per switch that connected it its input path's state,
// its output path's setting and the output path itself (up to the turning
// switch, then down to the destination NIC), and where it was lost, if it
// was; the window around it, marker A at its M on the NIC's up path and B at
// its last message bit on the path into the destination; one comment per
// attempt and per hop.
std::string BitSerialFatTree::packet_save_file(const WaveformTracer& tracer, const std::string& prefix,
                                               std::uint32_t id) const {
  const StreamFollower::Followed* f = follower_ ? follower_->find(id) : nullptr;
  std::ostringstream g;
  const std::string dump = tracer.path().substr(tracer.path().find_last_of('/') + 1);
  g << "[*] GTKWave save file written by icnsim: message " << id << " (outputs.trace_packet) in " << dump << "\n"
    << "[*] Open with: gtkwave " << dump << " <this file>\n";
  const StreamFollower::Attempt* shown = f != nullptr ? f->shown() : nullptr;
  if (shown == nullptr) {
    if (f == nullptr || !f->message.in_set)
      g << "[*] Message " << id << " is not in this run's message set (ids 0 .. messages - 1): it was not injected in "
        << "this run: nothing to show.\n";
    else
      g << "[*] Message " << id << " (" << f->message.src << " -> " << f->message.dst
        << ") was not injected in this run: nothing to show.\n";
    g << "[dumpfile] \"" << dump << "\"\n";
    return g.str();
  }
  const StreamFollower::Message& m = f->message;
  const std::size_t shown_index = static_cast<std::size_t>(shown - f->attempts.data()) + 1;
  g << "[*] Message " << id << ": " << m.src << " -> " << m.dst << " (seq " << m.seq << "), " << f->attempts.size()
    << " attempt(s); shown: attempt " << shown_index << " (delivery cycle " << shown->delivery_cycle << "), ";
  if (shown->arrived != kNever)
    g << "its M on nic" << m.src << "'s up path in clock " << shown->started << " (marker A), its last message bit on "
      << "the path into nic" << shown->received_by << " in clock " << shown->arrived << " (marker B).\n";
  else
    g << "never received when the run ended; its M on nic" << m.src << "'s up path in clock " << shown->started
      << " (marker A).\n";
  const std::size_t net = std::string(name()).size() + 1;
  for (std::size_t i = 0; i < f->attempts.size(); ++i) {
    const auto& a = f->attempts[i];
    g << "[*] attempt " << i + 1 << ": delivery cycle " << a.delivery_cycle << ", M in clock " << a.started << " on "
      << a.up->name().substr(net) << " p" << a.up_path;
    if (a.lost.cycle != kNever)
      g << ", " << (a.lost.flushed ? "flushed" : "lost") << " at " << switch_label(a.lost.level, a.lost.index) << " ("
        << port_path(a.lost.in_port, a.lost.in_path) << " denied " << port_name(a.lost.out_port) << ") in clock "
        << a.lost.cycle;
    if (a.arrived != kNever) g << ", received by nic" << a.received_by << " (last bit in clock " << a.arrived << ")";
    if (a.reported == kNever) g << ", no delivery report when the run ended\n";
    else g << (a.acknowledged ? ", acknowledged in clock " : ", reported lost in clock ") << a.reported << "\n";
  }
  for (std::size_t i = 0; i < shown->hops.size(); ++i) {
    const auto& h = shown->hops[i];
    g << "[*] hop " << i + 1 << ": " << switch_label(h.level, h.index) << " " << port_path(h.in_port, h.in_path)
      << " -> " << port_path(h.out_port, h.out_path) << ", M on " << h.out->name().substr(net) << " p" << h.out_path
      << " in clock " << h.cycle << "\n";
  }
  g << "[dumpfile] \"" << dump << "\"\n[size] 1400 900\n";
  Cycle last = shown->started;
  for (Cycle c : {shown->arrived, shown->lost.cycle, shown->reported})
    if (c != kNever) last = std::max(last, c);
  g << tracer.window_lines(shown->started > 4 ? shown->started - 4 : 0, last + 4, {shown->started, shown->arrived});

  // Rows outputs.trace_routers left out of the waveform are left out here too.
  auto kept = [&](std::vector<std::string> names) {
    names.erase(std::remove_if(names.begin(), names.end(),
                               [&](const std::string& n) { return tracer.rows_text("", {n}).find("+{") == std::string::npos; }),
                names.end());
    return names;
  };
  auto path_rows = [&](const BitChannel* c, unsigned path) {
    const std::string scope = path_scope(prefix, c, path);
    return std::vector<std::string>{scope + ".valid", scope + ".bit", scope + ".ack"};
  };
  auto switch_scope = [&](unsigned level, unsigned index) {
    return prefix + ".level" + std::to_string(level) + "." + switch_label(level, index);
  };
  g << save_rows(prefix, "nic" + std::to_string(m.src) + " up p" + std::to_string(shown->up_path),
                 kept(path_rows(shown->up, shown->up_path)));
  for (std::size_t i = 0; i < shown->hops.size(); ++i) {
    const auto& h = shown->hops[i];
    const std::string sw = switch_scope(h.level, h.index);
    const std::string out = sw + ".out_" + port_name(h.out_port) + ".p" + std::to_string(h.out_path);
    std::vector<std::string> rows{sw + ".in_" + port_name(h.in_port) + ".p" + std::to_string(h.in_path) + ".state",
                                  out + ".from_port", out + ".from_path"};
    for (std::string& r : path_rows(h.out, h.out_path)) rows.push_back(std::move(r));
    g << save_rows(prefix,
                   "hop " + std::to_string(i + 1) + ": " + switch_label(h.level, h.index) + " " +
                       port_path(h.in_port, h.in_path) + " -> " + port_path(h.out_port, h.out_path),
                   kept(rows));
  }
  if (shown->lost.cycle != kNever) {
    const auto& l = shown->lost;
    g << save_rows(prefix, std::string(l.flushed ? "flushed" : "lost") + " at " + switch_label(l.level, l.index),
                   kept({switch_scope(l.level, l.index) + ".in_" + port_name(l.in_port) + ".p" +
                         std::to_string(l.in_path) + ".state"}));
  }
  return g.str();
}

}  // namespace icn::bitserial
