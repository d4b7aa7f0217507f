// BroadcastTrial: one torus or iBT network running one (pattern, split)
// choice of a broadcast (testbench/ibt_experiment.cpp runs one per choice in
// one engine and reports the fastest): the network, the source's NIC and
// processing element, the ledger and the receipts check of the group.
#pragma once

#include <systemc>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "models/ledger.hpp"
#include "models/packet.hpp"
#include "routers/ibt/broadcast_nic.hpp"
#include "routers/ibt/ibt_network.hpp"
#include "routers/ibt/ibt_topology.hpp"
#include "testbench/collective_experiment.hpp"
#include "testbench/ibt_broadcast.hpp"
#include "testbench/ibt_setup.hpp"
#include "testbench/processing_element.hpp"

namespace icn {

class BroadcastTrial : public sc_core::sc_module {
 public:
  BroadcastTrial(sc_core::sc_module_name name, const IbtTopology& topo, const IbtSetup& setup, IbtBroadcastPlan plan,
                 CycleEngine& engine, PacketPool& pool, std::uint64_t content_key)
      : sc_module(name),
        plan_(std::move(plan)),
        receipts_(topo, plan_, content_key),
        tap_(latency_),
        network_("net", topo, plan_.packets, setup.order, engine, pool, ledger_, &tap_, setup.swap),
        nic_("nic", BroadcastNic::Params{plan_.source, plan_.group_size(topo) - 1, plan_.packets}, pool, ledger_,
             engine, network_.router(plan_.source)),
        source_plan_(SimpleReceiptPlan::Kind::kFromOne, topo.nodes(), plan_.source, true),
        pe_("pe", plan_.source, content_key, std::make_unique<ListProgram>(plan_.sends()), source_plan_) {
    for (const auto& a : setup.failed_links) network_.fail_link(static_cast<NodeId>(a.node), a.port);
    tap_.route_all(receipts_);
    pe_.socket.bind(nic_.socket);
    engine.add(pe_);
    pe_.start();
  }

  const IbtBroadcastPlan& plan() const { return plan_; }
  const GroupReceipts& receipts() const { return receipts_; }
  const TrafficLedger& ledger() const { return ledger_; }
  const LatencyStats& latency() const { return latency_; }
  ibt::IbtNetwork& network() { return network_; }
  const ibt::IbtNetwork& network() const { return network_; }
  // Waveform rows of `nodes` (the NIC's too), following `packets` (outputs.trace_packet).
  void trace(WaveformTracer& tracer, const std::string& prefix, const std::vector<NodeId>& nodes,
             const std::vector<std::uint32_t>& packets) {
    network_.follow(packets);
    network_.trace(tracer, prefix, nodes, &nic_);
  }
  Cycle cycles() const { return receipts_.last_arrival(); }
  std::string verification_problem() const { return receipts_.problem(); }

 private:
  IbtBroadcastPlan plan_;
  TrafficLedger ledger_;
  GroupReceipts receipts_;
  LatencyStats latency_;
  DeliveryTap tap_;  // ejection probe: latency, then the group's receipts
  ibt::IbtNetwork network_;
  BroadcastNic nic_;
  SimpleReceiptPlan source_plan_;
  ProcessingElement pe_;
};

}  // namespace icn
