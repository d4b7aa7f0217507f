// `icnsim` with no arguments: a first look at every modelled family. Each
// family runs a few small scenarios, all elaborated into one SystemC kernel
// and simulated together (a fraction of a second), and prints its own table
// with the value the paper gives beside what the simulated hardware did.
#include <iomanip>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "models/host.hpp"
#include "testbench/driver.hpp"

namespace icn {

namespace {

struct Case {
  std::string name;
  std::vector<std::string> overrides;  // --set key=value, on the built-in defaults
};

struct Family {
  std::string title;     // the hardware and its paper
  std::string scenario;  // the shipped scenario of this family, to start from
  std::vector<Case> cases;
  std::string paper;  // what the paper says, for the rows above
  std::vector<std::unique_ptr<Experiment>> experiments;
};

std::vector<Family> families() {
  std::vector<Family> out;

  Family packet{"Packet-switched binary fat trees, 16 leaves, every collective (Dimakopoulos & Dimopoulos)",
                "testbench/scenarios/fattree_cbft16_total_exchange.yaml",
                {},
                "paper: the closed forms of sections 2-5 (2 log n, n + 1, eqs. (1) and (2)); lower bound: Table 1",
                {}};
  for (const char* caps : {"cbft", "ebft"}) {
    for (const char* coll : {"broadcast", "scatter", "gather", "multinode_broadcast"})
      packet.cases.push_back({std::string(caps) + "16_" + coll,
                              {"network.type=fattree_packet", "network.leaves=16", std::string("network.capacities=") + caps,
                               std::string("traffic.collective=") + coll}});
    for (const char* pipelined : {"false", "true"})
      packet.cases.push_back({std::string(caps) + "16_total_exchange_" + pipelined,
                              {"network.type=fattree_packet", "network.leaves=16", std::string("network.capacities=") + caps,
                               "traffic.collective=total_exchange", std::string("traffic.pipelined=") + pipelined}});
  }
  out.push_back(std::move(packet));

  Family bitserial{"Bit-serial fat tree, 64 processors, greedy routing of random message sets (Ishii 1985)",
                   "testbench/scenarios/fattree_bitserial_doubling64_random.yaml",
                   {},
                   "paper: at least lambda(FT,M) delivery cycles; the memo's simulations took about 3 lambda on average",
                   {}};
  for (const char* caps : {"constant", "doubling"})
    bitserial.cases.push_back({std::string("bitserial64_") + caps,
                               {"network.type=fattree_bitserial", "network.processors=64",
                                std::string("network.capacities=") + caps, "traffic.pattern=random",
                                "traffic.load_factor=4"}});
  out.push_back(std::move(bitserial));

  Family ibt{"Interlaced bypass torus and torus, pipelined broadcast of 32 packets (Zhang & Deng)",
             "testbench/scenarios/ibt_table1_line.yaml",
             {{"ibt_line", {"network.type=ibt", "network.n=64", "network.d=2", "network.bypass=[8,24]",
                            "traffic.collective=line_broadcast", "traffic.packets=32", "traffic.source=0",
                            "traffic.pattern=best"}},
              {"torus_global", {"network.type=torus", "network.n=12", "network.d=3",
                                "traffic.collective=global_broadcast", "traffic.packets=32",
                                "traffic.source=[3,7,1]"}}},
             "paper: Table 1 (iBT, its own step-level simulator; differences: docs/ibt.md) and eq. (5) (torus)",
             {}};
  out.push_back(std::move(ibt));

  Family frac{"Pipelined broadcast on a 64-port crossbar of single-port processors, k = 2048, t = 16 (Sanders & Sibeyn)",
              "testbench/scenarios/fractional_crossbar_broadcast.yaml",
              {},
              "paper: each tree's step count from its recurrence and Fig. 2 (eq. (7) counts one step more; docs/fractional_tree.md)",
              {}};
  for (const char* algorithm : {"chain", "binary", "fractional"}) {
    Case c{std::string("crossbar64_") + algorithm,
           {"network.type=crossbar", "network.processors=64", "traffic.collective=broadcast",
            std::string("traffic.algorithm=") + algorithm, "traffic.packets=32", "traffic.message_units=2048",
            "nic.startup=16"}};
    if (std::string(algorithm) == "fractional") c.overrides.push_back("traffic.group=4");
    frac.cases.push_back(c);
  }
  out.push_back(std::move(frac));

  Family vc{"Virtual-channel wormhole routers, 8x8 mesh, uniform random traffic, BookSim-equivalent timing",
            "testbench/scenarios/mesh8x8_uniform.yaml",
            {},
            "BookSim 2 (iq router, same configuration): packet latency 37.2 at 0.05 and 38.7 at 0.15 (docs/vc_router.md)",
            {}};
  for (const char* rate : {"0.05", "0.15"})
    vc.cases.push_back({std::string("mesh8x8_load") + (rate + 2),  // module names take no dots
                        {"network.type=vc", "network.topology=mesh", "network.k=8", "network.n=2", "preset=booksim",
                         "traffic.pattern=uniform", std::string("traffic.injection_rate=") + rate}});
  out.push_back(std::move(vc));

  Family hpam{"HPAM: one processor over a 4x4 level-2 mesh, broadcast of 1 KiB, Q = 2 (Ben Miled et al.)",
              "testbench/scenarios/hpam_broadcast_multicast.yaml",
              {},
              "paper us: eqs. (5) and (6) for the same sub-mesh; the routers overlap what the equations serialise "
              "(docs/hpam.md)",
              {}};
  for (const char* algorithm : {"hybrid", "multicast"}) {
    const bool multicast = std::string(algorithm) == "multicast";
    hpam.cases.push_back({std::string("hpam4x4_") + algorithm,
                          {"network.type=hpam", "network.levels=[[1,1],[4,4]]", "nic.q=2",
                           "traffic.collective=broadcast", std::string("traffic.algorithm=") + algorithm,
                           "traffic.message_bytes=1024", multicast ? "traffic.submesh=[2,1]" : "traffic.submesh=[4,2]",
                           multicast ? "network.replication=true" : "network.replication=false"}});
  }
  out.push_back(std::move(hpam));
  return out;
}

// A --set value as a shell word: quoted when the shell would read it otherwise.
std::string shell_word(const std::string& word) {
  if (word.find_first_of(" []{},*?$'\"\\;&|<>()") == std::string::npos) return word;
  return "'" + word + "'";
}

std::string command_for(const Case& c) {
  std::string cmd = "icnsim run /dev/null";
  for (const std::string& o : c.overrides) cmd += " --set " + shell_word(o);
  return cmd;
}

}  // namespace

int run_default_table(std::ostream& out) {
  std::vector<Family> all = families();
  std::vector<std::unique_ptr<Config>> configs;  // kept alive with their experiments
  for (Family& f : all) {
    for (const Case& c : f.cases) {
      auto cfg = std::make_unique<Config>(Config::from_text("", "defaults"));
      for (const std::string& o : c.overrides) cfg->apply_override(o);
      Prepared p = prepare(*cfg);
      f.experiments.push_back(p.setup->elaborate(c.name, p.ctx));
      configs.push_back(std::move(cfg));
    }
  }
  WallClock wall;
  sc_core::sc_start();
  const double seconds = wall.seconds();

  out << "icnsim " << kVersion << " - every modelled family, measured cycle by cycle in the simulated hardware\n";
  bool all_ok = true;
  std::size_t runs = 0;
  for (const Family& f : all) {
    out << "\n" << f.title << "\n\n";
    std::vector<std::vector<std::string>> rows;
    for (const auto& e : f.experiments) {
      rows.push_back(e->table_row());
      all_ok = all_ok && e->problem().empty();
      ++runs;
    }
    print_table(out, f.experiments.front()->table_header(), rows);
    out << f.paper << "\n";
    // Each row's own command: the same keys on the same defaults, so it
    // prints that row exactly (a test runs every one of them).
    out << "each row from the command line, in order (a scenario file to start from: " << f.scenario << "):\n";
    for (const Case& c : f.cases) out << "  $ " << command_for(c) << "\n";
  }
  out << "\nverified: every processor received exactly what it should and every message is accounted for.\n"
      << runs << " runs in " << std::fixed << std::setprecision(3) << seconds << " s. Next:\n"
      << "  icnsim list                 every network type, traffic and key\n"
      << "  testbench/scenarios/        one scenario per family (icnsim run FILE)\n"
      << "  scripts/reproduce --quick   every paper's tables and figures (docs/reproduction/)\n"
      << "  icnsim sweep SWEEP.yaml     parameter sweeps, local or on Slurm (docs/sweeps.md)\n";
  for (const Family& f : all)
    for (const auto& e : f.experiments) {
      const std::string problem = e->problem();
      if (!problem.empty()) std::cerr << "icnsim: " << e->name() << ": " << problem << '\n';
    }
  return all_ok ? 0 : 1;
}

}  // namespace icn
