// The per-packet save files of outputs.trace_packet for the pipelined
// collectives on the crossbars: one packet number's transfers, hop by hop
// over the processors' tx and rx rows, written when the run has ended (the
// path is known only then).
#include <algorithm>
#include <sstream>

#include "testbench/pipelined_collective.hpp"

namespace icn {

namespace {

using Transfer = TransferFollower::Transfer;

std::string dump_name(const WaveformTracer& tracer) {
  return tracer.path().substr(tracer.path().find_last_of('/') + 1);
}

std::string nic(NodeId x) { return "nic" + std::to_string(x); }

// The hops shown: a broadcast's path from the root to the processor it
// reached last (ties: the lowest id), walked back over the transfer that
// first brought it to each processor; a reduction's longest chain of sends
// ending at the root (ties: the lowest first sender).
std::vector<Transfer> hops_of(const std::vector<Transfer>& all, NodeId root, bool reduction, NodeId processors) {
  std::vector<const Transfer*> by(processors, nullptr);  // broadcast: into x; reduction: out of x
  for (const Transfer& t : all) {
    if (t.received == kNever) continue;
    const NodeId x = reduction ? t.from : t.to;
    if (x < processors && (by[x] == nullptr || (reduction ? t.sent < by[x]->sent : t.received < by[x]->received)))
      by[x] = &t;
  }
  std::vector<Transfer> best;
  for (NodeId start = 0; start < processors; ++start) {
    if (start == root || by[start] == nullptr) continue;
    std::vector<Transfer> hops;
    for (NodeId x = start; x != root && x < processors && by[x] != nullptr && hops.size() < processors;) {
      hops.push_back(*by[x]);
      x = reduction ? by[x]->to : by[x]->from;
    }
    if (!reduction) std::reverse(hops.begin(), hops.end());
    const bool better = reduction ? hops.size() > best.size()
                                  : best.empty() || hops.back().received > best.back().received;
    if (better) best = std::move(hops);
  }
  return best;
}

}  // namespace

void ProcessorSet::follow(WaveformTracer& tracer, const std::string& prefix, const std::vector<std::uint32_t>& ids,
                          const PipelinedProgram& program) {
  follower = std::make_unique<TransferFollower>(ids);
  for (const auto& n : nics) n->set_follower(follower.get());
  const NodeId processors = static_cast<NodeId>(nics.size());
  for (std::uint32_t id : ids) {
    tracer.add_save_file(WaveformTracer::packet_save_file_for(tracer.path(), id), [this, &tracer, prefix, id, processors,
                                                                                     root = program.root,
                                                                                     reduction = program.reduction,
                                                                                     s = program.s] {
      const std::string dump = dump_name(tracer);
      std::ostringstream g;
      g << "[*] GTKWave save file written by icnsim: packet " << id << " (outputs.trace_packet) in " << dump
        << "\n[*] Open with: gtkwave " << dump << " <this file>\n";
      const std::vector<Transfer>* all = follower->find(id);
      const std::vector<Transfer> hops = all ? hops_of(*all, root, reduction, processors) : std::vector<Transfer>{};
      if (hops.empty()) {
        g << "[*] Packet " << id << " was not sent in this run (the message's packets are numbered 0.." << s - 1
          << "): nothing to show.\n[dumpfile] \"" << dump << "\"\n";
        return g.str();
      }
      const NodeId first = hops.front().from, last = hops.back().to;
      g << "[dumpfile] \"" << dump << "\"\n[size] 1400 900\n";
      g << "[*] Packet " << id << " is packet number " << id << " of the message's " << s
        << " (0.." << s - 1 << ", the tx/rx rows' packet field).\n";
      if (reduction)
        g << "[*] Reduction to " << nic(root) << ": shown here the longest chain of sends of packet " << id
          << " that ends at the root, from " << nic(first) << " over " << hops.size() << " hop(s).\n";
      else
        g << "[*] Broadcast from " << nic(root) << ": shown here its path to " << nic(last)
          << ", the processor it reached last, over " << hops.size() << " hop(s).\n";
      g << "[*] Marker A: " << nic(first) << " starts sending it in cycle " << hops.front().sent
        << " (tx busy rises); B: " << nic(last) << " has it whole in cycle " << hops.back().received
        << " (rx shows a packet from its head until the cycle before its tail).\n";
      for (std::size_t i = 0; i < hops.size(); ++i)
        g << "[*] hop " << i + 1 << ": " << nic(hops[i].from) << " -> " << nic(hops[i].to) << ": sent "
          << hops[i].sent << ", received " << hops[i].received << "\n";
      const Cycle a = hops.front().sent, b = hops.back().received;
      g << tracer.window_lines(a > 4 ? a - 4 : 0, b + 4, {a, b});
      auto rows = [&](NodeId x, const char* dir) {
        const std::string base = prefix + ".nic" + std::to_string(x) + "." + dir + ".";
        const bool tx = dir[0] == 't';
        return tracer.rows_text(nic(x) + "/" + dir,
                                {base + "busy", base + (tx ? "dst" : "src"), base + "packet"});
      };
      g << rows(first, "tx");
      for (std::size_t i = 0; i < hops.size(); ++i) {
        g << rows(hops[i].to, "rx");
        if (i + 1 < hops.size()) g << rows(hops[i].to, "tx");
      }
      return g.str();
    });
  }
}

}  // namespace icn
