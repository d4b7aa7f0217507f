// The RTL twin of VcRouter (rtl/vc_router/), verilated as plain C++ (2-D,
// 2 VCs of 4 flits, 32-bit payload), wired into meshes and tori by a harness
// that follows docs/rtl_router.md's contract: a flit (credit) a router drives
// in cycle t is on its neighbour's inputs in t + latency; NICs as VcNic
// (round-robin VC among those with a credit, one flit per cycle, ejection
// credit returned at once).
//
// The expected values come from the contract and the C++ model, never from the
// RTL: the zero-load arithmetic of docs/vc_router.md (4 cycles per router plus
// the links), MeshTorusTopology::route with a per-router icn::Rng for the port
// and VC class of every hop (the C++ router's own routing function and
// generator), the credit loop's arithmetic for a long packet, and the books
// (every packet at its destination, its flits in order on one VC, no buffer
// overflow, every credit back) under load.
#include <gtest/gtest.h>

#include <cstdint>
#include <array>
#include <cstdlib>
#include <deque>
#include <fstream>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "Vvc_router.h"
#include "Vvc_router_packed_shim.h"
#include "verilated.h"

#include "models/rng.hpp"
#include "routers/vc/vc_topology.hpp"

namespace {

constexpr unsigned kVcs = 2;
constexpr unsigned kDepth = 4;
constexpr unsigned kCoordW = 8;
constexpr unsigned kPorts = 5;
constexpr unsigned kAddrW = 2 * kCoordW;
constexpr unsigned kVcW = 1;
constexpr unsigned kPayloadW = 32;

// Bit fields of Verilator's port types: integers up to 64 bits, VlWide above.
template <class T>
void put(T& port, unsigned lsb, unsigned width, std::uint64_t value) {
  for (unsigned i = 0; i < width; ++i) {
    const unsigned b = lsb + i;
    const bool bit = (value >> i) & 1u;
    if constexpr (std::is_integral_v<T>) {
      if (bit) port = static_cast<T>(port | (T{1} << b));
      else port = static_cast<T>(port & ~(T{1} << b));
    } else {
      if (bit) port[b / 32] |= (1u << (b % 32));
      else port[b / 32] &= ~(1u << (b % 32));
    }
  }
}
template <class T>
std::uint64_t get(const T& port, unsigned lsb, unsigned width) {
  std::uint64_t v = 0;
  for (unsigned i = 0; i < width; ++i) {
    const unsigned b = lsb + i;
    bool bit;
    if constexpr (std::is_integral_v<T>) bit = (port >> b) & 1u;
    else bit = (port[b / 32] >> (b % 32)) & 1u;
    if (bit) v |= std::uint64_t{1} << i;
  }
  return v;
}

struct Flit {
  bool head = false, tail = false;
  unsigned vc = 0;
  std::uint32_t src = 0, dst = 0, payload = 0;  // addresses as coordinates
};
struct Credit {
  unsigned vc = 0;
};

// One direction of a link: what is sent in t is seen in t + latency.
template <class T>
class Line {
 public:
  void send(std::uint64_t at, const T& v) {
    ASSERT_EQ(rows_.count(at), 0u) << "two items for one cycle on one link";
    rows_[at] = v;
  }
  bool take(std::uint64_t t, T& v) {
    auto it = rows_.find(t);
    if (it == rows_.end()) return false;
    v = it->second;
    rows_.erase(it);
    return true;
  }
  bool empty() const { return rows_.empty(); }

 private:
  std::map<std::uint64_t, T> rows_;
};

struct Spec {
  bool torus = false;
  unsigned kx = 2, ky = 2;
  unsigned L = 1;   // NIC links
  unsigned C = 1;   // links between routers
  unsigned d = 0;   // router.credit_delay
  bool dateline = true, whole_dimension = false, random_ties = false;
  std::uint64_t seed = 1;
};

struct Packet {
  unsigned src = 0, dst = 0, size = 4;
  std::uint64_t created = 0;
  std::uint64_t head_sent = 0, head_ejected = 0, tail_ejected = 0;
  unsigned ejected_at = ~0u, flits = 0;
  bool done = false;
};

// A head leaving a router: router, output port, output VC, cycle.
struct Hop {
  unsigned router, port, vc;
  std::uint64_t cycle;
};

template <class Model>
class RtlNetwork {
 public:
  explicit RtlNetwork(const Spec& s)
      : s_(s),
        topo_(s.torus ? icn::vc::TopologyKind::kTorus : icn::vc::TopologyKind::kMesh, std::vector<unsigned>{s.kx, s.ky},
              kVcs, s.dateline) {
    icn::vc::TorusOptions o;
    o.classes = s.whole_dimension ? icn::vc::DatelineClasses::kWholeDimension : icn::vc::DatelineClasses::kAfterCrossing;
    o.random_ties = s.random_ties;
    topo_.set_torus_options(o);
    const unsigned R = s.kx * s.ky;
    ctx_.debug(0);
    flit_in_.resize(R * kPorts);
    credit_in_.resize(R * kPorts);
    nic_credit_.resize(R);
    nic_eject_.resize(R);
    nics_.resize(R);
    occupancy_.assign(R * kPorts * kVcs, 0);
    for (unsigned r = 0; r < R; ++r) {
      auto m = std::make_unique<Model>(&ctx_, ("r" + std::to_string(r)).c_str());
      m->router_id_i = r;
      m->coord_i = address(r);
      m->last_coord_i = static_cast<std::uint16_t>((s.kx - 1) | ((s.ky - 1) << kCoordW));
      m->torus_i = s.torus;
      m->route_cfg_i = static_cast<std::uint8_t>((s.dateline ? 1 : 0) | (s.whole_dimension ? 2 : 0) | (s.random_ties ? 4 : 0));
      // The generator's state as icn::Rng(seed, router) seeds it.
      std::uint64_t st = s.seed ^ (static_cast<std::uint64_t>(r) * 0xd1342543de82ef95ULL);
      for (unsigned w = 0; w < 4; ++w) put(m->seed_i, 64 * w, 64, icn::splitmix64(st));
      m->clk_i = 0;
      m->rst_ni = 0;
      m->eval();
      m->clk_i = 1;
      m->eval();
      m->clk_i = 0;
      m->rst_ni = 1;
      m->eval();
      EXPECT_EQ(m->contract_version_o, 1u);
      routers_.push_back(std::move(m));
      rngs_.emplace_back(s.seed, r);
    }
  }

  std::uint16_t address(unsigned node) const {
    return static_cast<std::uint16_t>((node % s_.kx) | ((node / s_.kx) << kCoordW));
  }
  unsigned node_of(std::uint32_t addr) const { return (addr & 0xffu) + s_.kx * (addr >> kCoordW); }
  const icn::vc::MeshTorusTopology& topology() const { return topo_; }

  // A packet created in cycle `at` (the NIC sends from at + 1 on).
  unsigned create(unsigned src, unsigned dst, unsigned size, std::uint64_t at) {
    packets_.push_back(Packet{src, dst, size, at});
    nics_[src].queue.push_back(static_cast<unsigned>(packets_.size() - 1));
    return static_cast<unsigned>(packets_.size() - 1);
  }

  // Check every head's hop against the C++ routing function (valid while
  // a router's heads are routed one at a time, in packet order).
  void check_routes(bool on) { check_routes_ = on; }

  void run_until(std::uint64_t last) {
    while (now_ < last) step();
  }
  bool idle() const {
    for (const auto& n : nics_)
      if (!n.queue.empty() || n.current >= 0) return false;
    for (const auto& p : packets_)
      if (!p.done) return false;
    return true;
  }
  std::uint64_t now() const { return now_; }
  const std::vector<Packet>& packets() const { return packets_; }
  const std::vector<Hop>& hops(unsigned packet) { return hops_[packet]; }
  // Every credit back: each output holds Depth per VC and each NIC too.
  void expect_all_credits_back() {
    for (unsigned n = 0; n < nics_.size(); ++n)
      for (unsigned v = 0; v < kVcs; ++v) EXPECT_EQ(nics_[n].credits[v], kDepth) << "nic " << n << " vc " << v;
    for (unsigned i = 0; i < occupancy_.size(); ++i) EXPECT_EQ(occupancy_[i], 0u) << "input VC " << i;
  }

 private:
  struct Nic {
    std::deque<unsigned> queue;
    int current = -1;
    unsigned sent = 0, vc = 0, last_vc = kVcs - 1;
    unsigned credits[kVcs] = {kDepth, kDepth};
    int eject_packet[kVcs] = {-1, -1};
  };

  unsigned C() const { return s_.C; }

  void step() {
    const std::uint64_t t = ++now_;
    const unsigned R = static_cast<unsigned>(routers_.size());
    // NICs (VcNic::tick).
    for (unsigned n = 0; n < R; ++n) {
      Nic& nic = nics_[n];
      Credit c;
      if (nic_credit_[n].take(t, c)) {
        ASSERT_LT(nic.credits[c.vc], kDepth) << "credit overflow at nic " << n;
        ++nic.credits[c.vc];
      }
      Flit f;
      if (nic_eject_[n].take(t, f)) {
        credit_in_[n * kPorts + 0].send(t + s_.L + s_.d, Credit{f.vc});
        const int id = static_cast<int>(f.payload);
        Packet& p = packets_.at(static_cast<unsigned>(id));
        if (f.head) {
          ASSERT_EQ(nic.eject_packet[f.vc], -1) << "a head inside a packet on nic " << n << " vc " << f.vc;
          nic.eject_packet[f.vc] = id;
          p.head_ejected = t;
          p.ejected_at = n;
        }
        ASSERT_EQ(nic.eject_packet[f.vc], id) << "a flit of another packet on nic " << n << " vc " << f.vc;
        EXPECT_EQ(f.src, address(p.src));
        EXPECT_EQ(f.dst, address(p.dst));
        ++p.flits;
        if (f.tail) {
          p.tail_ejected = t;
          p.done = true;
          nic.eject_packet[f.vc] = -1;
        }
      }
      if (nic.current < 0 && !nic.queue.empty() && packets_[nic.queue.front()].created < t) {
        for (unsigned i = 1; i <= kVcs; ++i) {
          const unsigned v = (nic.last_vc + i) % kVcs;
          if (nic.credits[v] == 0) continue;
          nic.current = static_cast<int>(nic.queue.front());
          nic.queue.pop_front();
          nic.sent = 0;
          nic.vc = nic.last_vc = v;
          break;
        }
      }
      if (nic.current >= 0 && nic.credits[nic.vc] != 0) {
        Packet& p = packets_[static_cast<unsigned>(nic.current)];
        Flit out{nic.sent == 0, nic.sent + 1 == p.size, nic.vc, address(p.src), address(p.dst),
                 static_cast<std::uint32_t>(nic.current)};
        if (nic.sent == 0) p.head_sent = t;
        --nic.credits[nic.vc];
        flit_in_[n * kPorts + 0].send(t + s_.L, out);
        if (++nic.sent == p.size) nic.current = -1;
      }
    }
    // Routers: this cycle's inputs, settle, outputs.
    for (unsigned r = 0; r < R; ++r) {
      Model& m = *routers_[r];
      m.in_valid_i = 0;
      m.out_credit_valid_i = 0;
      for (unsigned p = 0; p < kPorts; ++p) {
        Flit f;
        if (flit_in_[r * kPorts + p].take(t, f)) {
          put(m.in_valid_i, p, 1, 1);
          put(m.in_head_i, p, 1, f.head);
          put(m.in_tail_i, p, 1, f.tail);
          put(m.in_vc_i, p * kVcW, kVcW, f.vc);
          put(m.in_src_i, p * kAddrW, kAddrW, f.src);
          put(m.in_dst_i, p * kAddrW, kAddrW, f.dst);
          put(m.in_payload_i, p * kPayloadW, kPayloadW, f.payload);
          unsigned& occ = occupancy_[(r * kPorts + p) * kVcs + f.vc];
          ASSERT_LT(occ, kDepth) << "buffer overflow at router " << r << " port " << p << " vc " << f.vc;
          ++occ;
        }
        Credit c;
        if (credit_in_[r * kPorts + p].take(t, c)) {
          put(m.out_credit_valid_i, p, 1, 1);
          put(m.out_credit_vc_i, p * kVcW, kVcW, c.vc);
        }
      }
      m.eval();
      for (unsigned p = 0; p < kPorts; ++p) {
        if (get(m.in_credit_valid_o, p, 1)) {
          const unsigned v = static_cast<unsigned>(get(m.in_credit_vc_o, p * kVcW, kVcW));
          unsigned& occ = occupancy_[(r * kPorts + p) * kVcs + v];
          ASSERT_GT(occ, 0u) << "a credit for an empty VC at router " << r << " port " << p;
          --occ;
          if (p == 0) {
            nic_credit_[r].send(t + s_.L + s_.d, Credit{v});
          } else {
            const auto nb = topo_.neighbor(r, p);
            ASSERT_TRUE(nb.has_value()) << "a credit on an unconnected port";
            credit_in_[nb->router * kPorts + nb->port].send(t + C() + s_.d, Credit{v});
          }
        }
        if (!get(m.out_valid_o, p, 1)) continue;
        Flit f{get(m.out_head_o, p, 1) != 0,
               get(m.out_tail_o, p, 1) != 0,
               static_cast<unsigned>(get(m.out_vc_o, p * kVcW, kVcW)),
               static_cast<std::uint32_t>(get(m.out_src_o, p * kAddrW, kAddrW)),
               static_cast<std::uint32_t>(get(m.out_dst_o, p * kAddrW, kAddrW)),
               static_cast<std::uint32_t>(get(m.out_payload_o, p * kPayloadW, kPayloadW))};
        if (f.head) {
          hops_[f.payload].push_back(Hop{r, p, f.vc, t});
          if (check_routes_) {
            const icn::vc::RouteChoice want = topo_.route(r, 0, node_of(f.src), node_of(f.dst), rngs_[r]);
            EXPECT_EQ(p, want.port) << "router " << r << " packet " << f.payload;
            EXPECT_TRUE((want.vc_mask >> f.vc) & 1u) << "router " << r << " vc " << f.vc << " packet " << f.payload;
          }
        }
        if (p == 0) {
          nic_eject_[r].send(t + s_.L, f);
        } else {
          const auto nb = topo_.neighbor(r, p);
          ASSERT_TRUE(nb.has_value()) << "a flit onto an unconnected port of router " << r;
          flit_in_[nb->router * kPorts + nb->port].send(t + C(), f);
        }
      }
    }
    // The clock edge that ends cycle t.
    for (auto& m : routers_) {
      m->clk_i = 1;
      m->eval();
      m->clk_i = 0;
    }
  }

  Spec s_;
  icn::vc::MeshTorusTopology topo_;
  VerilatedContext ctx_;
  std::vector<std::unique_ptr<Model>> routers_;
  std::vector<icn::Rng> rngs_;
  std::vector<Line<Flit>> flit_in_;      // router r input p
  std::vector<Line<Credit>> credit_in_;  // router r output p's credits
  std::vector<Line<Credit>> nic_credit_;
  std::vector<Line<Flit>> nic_eject_;
  std::vector<Nic> nics_;
  std::vector<unsigned> occupancy_;      // flits held per router input VC, by the books
  std::vector<Packet> packets_;
  std::map<unsigned, std::vector<Hop>> hops_;
  bool check_routes_ = true;
  std::uint64_t now_ = 0;
};

// Routers a minimal route crosses.
unsigned routers_crossed(const Spec& s, unsigned src, unsigned dst) {
  auto dist = [&](unsigned a, unsigned b, unsigned k) {
    const unsigned f = (b + k - a) % k;
    return s.torus ? std::min(f, k - f) : (a > b ? a - b : b - a);
  };
  return 1 + dist(src % s.kx, dst % s.kx, s.kx) + dist(src / s.kx, dst / s.kx, s.ky);
}

// Every (source, destination) pair alone in the network, one after another:
// the packet arrives at its destination with the zero-load latency of
// docs/vc_router.md, T0 = 1 + L + 4R + (R-1)C + L + (P-1) from creation, and
// every hop takes the port and a VC of the C++ routing function.
template <class Model = Vvc_router>
void every_pair_alone(const Spec& s, unsigned size) {
  RtlNetwork<Model> net(s);
  const unsigned N = s.kx * s.ky;
  std::uint64_t t = 1;
  for (unsigned src = 0; src < N; ++src)
    for (unsigned dst = 0; dst < N; ++dst) {
      const unsigned id = net.create(src, dst, size, t);
      const unsigned R = routers_crossed(s, src, dst);
      const std::uint64_t head = t + 1 + s.L + 4 * R + (R - 1) * s.C + s.L;
      net.run_until(head + size + 4 * R + 2 * s.C + 2 * s.L + 8);
      const Packet& p = net.packets()[id];
      ASSERT_TRUE(p.done) << src << " -> " << dst;
      EXPECT_EQ(p.ejected_at, dst) << src << " -> " << dst;
      EXPECT_EQ(p.flits, size);
      EXPECT_EQ(p.head_ejected, head) << src << " -> " << dst << " over " << R << " routers";
      EXPECT_EQ(p.tail_ejected, head + size - 1) << src << " -> " << dst;
      EXPECT_EQ(net.hops(id).size(), R);
      t = net.now() + 1;
    }
  net.run_until(net.now() + 20);
  net.expect_all_credits_back();
}

TEST(VcRouterRtl, TwoByTwoMeshEveryPairArrivesAfterFourCyclesPerRouter) {
  every_pair_alone(Spec{}, 4);
}

TEST(VcRouterRtl, FourByFourMeshEveryPairZeroLoadAndRoute) {
  Spec s;
  s.kx = s.ky = 4;
  every_pair_alone(s, 4);
  s.L = 2;
  s.C = 3;
  every_pair_alone(s, 1);
}

// BookSim 2's torus (preset=booksim): channels of 2, credit delay 1, one
// dateline class per dimension, random ties by each router's own generator.
// On 4x4 every pair at distance 2 in a dimension is a tie, so the coins of
// icn::Rng(seed, router) decide those hops, checked against the RTL's.
TEST(VcRouterRtl, FourByFourBookSimTorusEveryPairZeroLoadAndRoute) {
  for (std::uint64_t seed : {1u, 7u}) {
    Spec s;
    s.torus = true;
    s.kx = s.ky = 4;
    s.C = 2;
    s.d = 1;
    s.whole_dimension = true;
    s.random_ties = true;
    s.seed = seed;
    every_pair_alone(s, 4);
  }
  Spec s;  // icnsim's own torus: classes after the crossing, ties +
  s.torus = true;
  s.kx = s.ky = 4;
  every_pair_alone(s, 3);
}

TEST(VcRouterRtl, RandomTiesGoBothWays) {
  Spec s;
  s.torus = true;
  s.kx = 4;
  s.ky = 2;
  s.whole_dimension = true;
  s.random_ties = true;
  RtlNetwork<Vvc_router> net(s);
  unsigned plus = 0, minus = 0;
  std::uint64_t t = 1;
  for (unsigned i = 0; i < 40; ++i) {
    const unsigned id = net.create(0, 2, 1, t);  // x distance 2 of 4: a tie
    net.run_until(t + 40);
    ASSERT_TRUE(net.packets()[id].done);
    const unsigned port = net.hops(id).front().port;
    (port == 1 ? plus : minus)++;
    t = net.now() + 1;
  }
  EXPECT_GT(plus, 5u);
  EXPECT_GT(minus, 5u);
}

// One long packet between neighbours: one VC streams Depth flits per credit
// loop, st + C + 1 + C + d cycles (docs/vc_router.md). With C = 2, d = 1 the
// loop is 7 > 4 = Depth: flits leave in groups of 4 every 7 cycles; with
// C = 1, d = 0 it is 4: one flit per cycle.
TEST(VcRouterRtl, LongPacketStreamsDepthFlitsPerCreditLoop) {
  for (unsigned C : {1u, 2u}) {
    Spec s;
    s.C = C;
    s.d = C - 1;
    RtlNetwork<Vvc_router> net(s);
    const unsigned size = 40;
    const unsigned id = net.create(0, 1, size, 1);
    net.run_until(400);
    const Packet& p = net.packets()[id];
    ASSERT_TRUE(p.done);
    EXPECT_EQ(p.head_ejected, 1 + 1 + 2 * s.L + 4 * 2 + C);
    const unsigned loop = 1 + C + 1 + C + s.d;
    const std::uint64_t body = loop <= kDepth ? size - 1 : (size / kDepth - 1) * loop + (kDepth - 1);
    EXPECT_EQ(p.tail_ejected - p.head_ejected, body) << "C = " << C;
  }
}

// Under load: Bernoulli packets of 4 flits to uniform destinations, then a
// drain. Every packet reaches its destination whole, no buffer overflows (the
// harness counts flits in and credits out per input VC), every credit comes
// back.
template <class Model = Vvc_router>
void loaded(const Spec& s, double rate, unsigned cycles, std::uint32_t seed) {
  RtlNetwork<Model> net(s);
  net.check_routes(false);  // several heads per router per cycle: draw order is the RTL's
  const unsigned N = s.kx * s.ky;
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> u(0, 1);
  for (unsigned t = 1; t <= cycles; ++t) {
    for (unsigned n = 0; n < N; ++n)
      if (u(gen) < rate / 4) net.create(n, static_cast<unsigned>(gen() % N), 4, t);
    net.run_until(t);
  }
  net.run_until(cycles + 20000);
  ASSERT_TRUE(net.idle()) << "not drained";
  unsigned count = 0;
  for (std::size_t i = 0; i < net.packets().size(); ++i) {
    const Packet& p = net.packets()[i];
    EXPECT_EQ(p.ejected_at, p.dst) << "packet " << i;
    EXPECT_EQ(p.flits, p.size) << "packet " << i;
    ++count;
  }
  EXPECT_GT(count, cycles * N * rate / 8);
  net.expect_all_credits_back();
}

TEST(VcRouterRtl, FourByFourMeshUnderLoadDeliversEverything) {
  Spec s;
  s.kx = s.ky = 4;
  loaded(s, 0.2, 2000, 1);
  loaded(s, 0.8, 1500, 2);  // beyond saturation
}

TEST(VcRouterRtl, FourByFourBookSimTorusUnderLoadDeliversEverything) {
  Spec s;
  s.torus = true;
  s.kx = s.ky = 4;
  s.C = 2;
  s.d = 1;
  s.whole_dimension = true;
  s.random_ties = true;
  loaded(s, 0.2, 2000, 3);
  loaded(s, 0.8, 1500, 4);
}

// The contract's shim example (rtl/vc_router/example/): the packed-format
// stand-in behind the shim is the twin, so the pair must pass the same tests
// with the same cycles: the shim adds no cycle and loses no field.
TEST(VcRouterRtl, PackedShimIsTransparent) {
  Spec s;
  s.kx = s.ky = 4;
  every_pair_alone<Vvc_router_packed_shim>(s, 4);
  s.torus = true;
  s.C = 2;
  s.d = 1;
  s.whole_dimension = true;
  s.random_ties = true;
  every_pair_alone<Vvc_router_packed_shim>(s, 2);
  loaded<Vvc_router_packed_shim>(s, 0.5, 1000, 5);
}

// The RTL half of scripts/rtl_vc_equivalence (skipped unless it runs it):
// replays the trace ICNSIM_RTL_TRACE (lines `cycle source destination
// size`, as traffic.trace_file) on a network of twins shaped like
// preset=booksim's (ICNSIM_RTL_K x ICNSIM_RTL_K; a mesh, or with
// ICNSIM_RTL_TORUS BookSim's torus), with ICNSIM_RTL_SEED as the scenario
// seed, and writes `line tail_cycle` per trace line to ICNSIM_RTL_OUT.
TEST(VcRouterRtl, ReplaysATraceForTheEquivalenceScript) {
  const char* trace = std::getenv("ICNSIM_RTL_TRACE");
  const char* out_path = std::getenv("ICNSIM_RTL_OUT");
  if (trace == nullptr || out_path == nullptr) GTEST_SKIP() << "run by scripts/rtl_vc_equivalence";
  Spec s;
  s.kx = s.ky = static_cast<unsigned>(std::atoi(std::getenv("ICNSIM_RTL_K")));
  s.d = 1;  // preset=booksim's router.credit_delay
  if (std::getenv("ICNSIM_RTL_TORUS") != nullptr) {
    s.torus = true;
    s.C = 2;
    s.whole_dimension = true;
    s.random_ties = true;
  }
  s.seed = std::strtoull(std::getenv("ICNSIM_RTL_SEED"), nullptr, 10);
  RtlNetwork<Vvc_router> net(s);
  net.check_routes(false);
  std::ifstream in(trace);
  std::uint64_t cycle = 0, last = 0;
  unsigned src = 0, dst = 0, size = 0;
  while (in >> cycle >> src >> dst >> size) {
    net.create(src, dst, size, cycle);
    last = cycle;
  }
  net.run_until(last + 20000);
  ASSERT_TRUE(net.idle()) << "not drained";
  std::ofstream out(out_path);
  for (std::size_t i = 0; i < net.packets().size(); ++i) out << i << ' ' << net.packets()[i].tail_ejected << '\n';
}

}  // namespace
