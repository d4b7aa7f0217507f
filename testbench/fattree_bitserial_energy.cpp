#include "testbench/fattree_bitserial_energy.hpp"

#include <string>

#include "power/tree_layout.hpp"
#include "routers/fattree_bitserial/bit_serial_nic.hpp"

namespace icn {

namespace {

// Ishii's paths carry one bit per clock: a stream bit is a link traversal of
// one bit. A wider path is priced as that many wires switching together;
// the timing stays bit-serial, so, as in the other families, the width is
// the energy model's key only.
const IntParam kPathBits{"power.flit_bits", 1, 1, 4096,
                         "width of one path, bits per clock (Ishii's paths: 1); the acknowledge and flush wires "
                         "stay one bit"};

}  // namespace

std::vector<ParamSpec> BitSerialPower::params() {
  std::vector<ParamSpec> p = power::power_params();
  for (ParamSpec& s : p) {
    if (s.key == kPathBits.key) s = kPathBits.spec();
    if (s.key == "power.link_mm")
      s.help = "side of a leaf's tile, mm: every wire's length with power.tree_layout=uniform, the H-tree's unit with htree";
  }
  p.push_back(power::kTreeLayout.spec());
  return p;
}

BitSerialPower BitSerialPower::read(Config& cfg) {
  BitSerialPower p;
  p.settings = power::read_power(cfg);
  cfg.declare(params());  // this family's defaults (a path of one bit) over the common ones
  p.settings.flit_bits = static_cast<unsigned>(kPathBits.read(cfg));
  p.htree = power::kTreeLayout.read(cfg) == "htree";
  return p;
}

double BitSerialPower::link_mm(unsigned level) const { return power::tree_link_mm(htree, settings.link_mm, level); }

power::ActivityInput BitSerialEnergy::input(Cycle cycles) const {
  const power::PowerSettings& p = power_.settings;
  power::ActivityInput in;
  for (const bitserial::BitSerialLevelActivity& a : network_.activity()) {
    const std::string level = "level " + std::to_string(a.level);
    power::RouterGroup g;
    g.name = level;
    g.count = a.switches;
    // Every physical path is a crossbar port one path wide; no VCs; each
    // input path's cell latches one bit (a FIFO of depth 1); one register
    // stage, the one that drives the output paths (a bit shifted in a clock
    // is seen downstream the next).
    g.shape = power::RouterShape{a.paths, a.paths, 1, 1, p.flit_bits};
    g.shape.register_after_link = g.shape.register_after_buffers = false;
    g.activity = a.activity;
    in.routers.push_back(g);
    // The level-1 branch joins the NICs to their switches, half a tile away in
    // an H-tree: priced like the others.
    const double mm = power_.link_mm(a.level);
    in.links.push_back({level + " paths", a.data_wires, mm, p.flit_bits, a.bits_up + a.bits_down});
    in.links.push_back({level + " acknowledge", a.ack_wires, mm, 1, a.ack_bits});
    if (a.flush_wires > 0) in.links.push_back({level + " flush", a.flush_wires, mm, 1, a.flush_bits});
  }
  in.cycles = cycles;
  in.delivered_flits = network_.messages_received();  // a message is this family's unit of delivery
  return in;
}

void BitSerialEnergy::register_stats(StatRegistry& stats) const {
  stats.derived(
      "activity",
      [this] {
        RouterActivity all;
        std::uint64_t acks_switched = 0;
        nlohmann::ordered_json levels = nlohmann::ordered_json::array();
        for (const bitserial::BitSerialLevelActivity& a : network_.activity()) {
          all += a.activity;
          acks_switched += a.ack_bits_switched;
          nlohmann::ordered_json one{{"level", a.level}, {"switches", a.switches}, {"paths", a.paths}};
          one.update(power::activity_json(a.activity));
          one["acknowledge_bits_switched"] = a.ack_bits_switched;
          one["links"] = {{"paths", a.data_wires},         {"bits_up", a.bits_up},
                          {"bits_down", a.bits_down},       {"acknowledge_wires", a.ack_wires},
                          {"acknowledge_bits", a.ack_bits}, {"flush_wires", a.flush_wires},
                          {"flush_bits", a.flush_bits},     {"length_mm", power_.link_mm(a.level)}};
          levels.push_back(one);
        }
        nlohmann::ordered_json j;
        j["routers"] = power::activity_json(all);
        j["routers"]["acknowledge_bits_switched"] = acks_switched;
        j["levels"] = levels;
        j["nics"] = {{"injections", network_.streams_started()}, {"ejections", network_.messages_received()}};
        return j;
      },
      "what the hardware did (docs/energy.md): per level and in all, clocked cycles, bits latched by the switches' "
      "input paths and shifted out, crossbar traversals (acknowledge bits included), concentrator decisions and "
      "requests; per level the wires, the bits each kind carried, their length; the NICs' streams and receptions");
}

void BitSerialEnergy::write(nlohmann::ordered_json& result, Cycle cycles) const {
  const power::ActivityInput in = input(cycles);
  nlohmann::ordered_json e = power::energy_json(power_.settings, in);
  // A delivered message carries the source address, sequence number and payload.
  const unsigned bits = bitserial::BitSerialNic::message_bits(network_.shape().height());
  const double total = e.at("total_pj").get<double>();
  e["delivered_messages"] = in.delivered_flits;
  e["message_bits"] = bits;
  e["per_message_pj"] = e.at("per_flit_pj");
  e["per_message_bit_pj"] = in.delivered_flits == 0 ? nlohmann::ordered_json(nullptr)
                                                    : nlohmann::ordered_json(total / double(in.delivered_flits * bits));
  e["tree_layout"] = power_.htree ? "htree" : "uniform";
  result["energy"] = e;
  result["area"] = power::area_json(power_.settings, in);
}

Column BitSerialEnergy::column() {
  return {"pJ/msg", [](const nlohmann::ordered_json& j) {
            const auto& e = j.at("result").at("energy").at("per_message_pj");
            return e.is_null() ? std::string("-") : Column::format_fixed(e.get<double>(), 1);
          }};
}

}  // namespace icn
