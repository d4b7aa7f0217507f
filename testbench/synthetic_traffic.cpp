#include "testbench/synthetic_traffic.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "models/config.hpp"

namespace icn {

const std::vector<std::string>& pattern_names() {
  static const std::vector<std::string> names{"uniform", "transpose", "bitcomp", "bitrev", "shuffle",
                                              "tornado", "neighbor",  "hotspot", "trace"};
  return names;
}

namespace {
unsigned log2_exact(unsigned n) {
  unsigned b = 0;
  while ((1u << b) < n) ++b;
  return b;
}
}  // namespace

std::string DestinationPattern::problem() const {
  const bool pow2 = (nodes & (nodes - 1)) == 0;
  switch (kind) {
    case PatternKind::kBitComp:
    case PatternKind::kBitRev:
    case PatternKind::kShuffle:
      if (!pow2) return "needs a power-of-two number of nodes (k^n = " + std::to_string(nodes) + ")";
      break;
    case PatternKind::kTranspose:
      if (!pow2 || log2_exact(nodes) % 2 != 0)
        return "needs 4^m nodes (an even number of address bits; k^n = " + std::to_string(nodes) + ")";
      break;
    default:
      break;
  }
  if (!self_traffic && nodes < 2 && kind == PatternKind::kUniform) return "needs two nodes without self traffic";
  return "";
}

NodeId DestinationPattern::pick(NodeId src, Rng& rng) const {
  const unsigned bits = log2_exact(nodes);
  const unsigned mask = nodes - 1;
  auto uniform = [&]() -> NodeId {
    if (self_traffic) return static_cast<NodeId>(rng.below(nodes));
    NodeId d = static_cast<NodeId>(rng.below(nodes - 1));
    return d >= src ? d + 1 : d;
  };
  auto per_dim = [&](unsigned offset) {
    NodeId d = 0, stride = 1;
    for (unsigned i = 0; i < n; ++i) {
      d += ((src / stride) % k + offset) % k * stride;
      stride *= k;
    }
    return d;
  };
  switch (kind) {
    case PatternKind::kUniform:
      return uniform();
    case PatternKind::kTranspose: {
      const unsigned h = bits / 2;
      return ((src >> h) | (src << h)) & mask;
    }
    case PatternKind::kBitComp:
      return ~src & mask;
    case PatternKind::kBitRev: {
      NodeId d = 0;
      for (unsigned i = 0; i < bits; ++i) d |= ((src >> i) & 1u) << (bits - 1 - i);
      return d;
    }
    case PatternKind::kShuffle:
      return bits == 0 ? 0 : ((src << 1) | (src >> (bits - 1))) & mask;
    case PatternKind::kTornado:
      return per_dim((k + 1) / 2 - 1);
    case PatternKind::kNeighbor:
      return per_dim(1);
    case PatternKind::kHotspot:
      if (!hotspots.empty() && rng.uniform() < hotspot_fraction)
        return hotspots[static_cast<std::size_t>(rng.below(hotspots.size()))];
      return uniform();
    case PatternKind::kTrace:
      break;
  }
  return src;
}

double PacketSizes::mean() const {
  double w = 0, s = 0;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    w += weights[i];
    s += weights[i] * sizes[i];
  }
  return s / w;
}

unsigned PacketSizes::pick(Rng& rng) const {
  if (sizes.size() == 1) return sizes[0];
  double total = 0;
  for (double w : weights) total += w;
  double u = rng.uniform() * total;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    if (u < weights[i]) return sizes[i];
    u -= weights[i];
  }
  return sizes.back();
}

std::vector<TraceEntry> read_trace(const std::string& path, unsigned nodes, unsigned max_size) {
  // A trace is a regular file of bounded size: a directory, a device or a FIFO
  // would read as nothing (a run with no traffic "verified") or never end.
  constexpr std::uintmax_t kMaxTraceBytes = 256u << 20;
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (ec || !std::filesystem::exists(status)) throw ConfigError("traffic.trace_file = " + path + ": no such file");
  if (!std::filesystem::is_regular_file(status))
    throw ConfigError("traffic.trace_file = " + path + ": not a regular file (expected a text file of 'cycle source destination size' lines)");
  if (std::filesystem::file_size(path, ec) > kMaxTraceBytes)
    throw ConfigError("traffic.trace_file = " + path + ": larger than 256 MiB");
  std::ifstream f(path);
  if (!f) throw ConfigError("traffic.trace_file = " + path + ": cannot open it");
  std::vector<TraceEntry> out;
  std::string line;
  unsigned number = 0;
  while (std::getline(f, line)) {
    ++number;
    const auto hash = line.find('#');
    if (hash != std::string::npos) line.erase(hash);
    std::istringstream in(line);
    std::string first;
    if (!(in >> first)) continue;  // blank or comment
    std::istringstream all(line);
    long long c = -1, s = -1, d = -1, z = -1;
    std::string extra;
    const std::string where = "traffic.trace_file = " + path + ": line " + std::to_string(number) + ": ";
    if (!(all >> c >> s >> d >> z) || (all >> extra))
      throw ConfigError(where + "expected 'cycle source destination size' (four integers)");
    if (c < 1) throw ConfigError(where + "cycle must be >= 1");
    if (s < 0 || s >= nodes || d < 0 || d >= nodes)
      throw ConfigError(where + "unknown node (nodes are 0.." + std::to_string(nodes - 1) + ")");
    if (z < 1 || z > max_size) throw ConfigError(where + "size must be 1.." + std::to_string(max_size) + " flits");
    out.push_back({static_cast<Cycle>(c), static_cast<NodeId>(s), static_cast<NodeId>(d), static_cast<unsigned>(z)});
  }
  if (f.bad()) throw ConfigError("traffic.trace_file = " + path + ": read error");
  if (out.empty()) throw ConfigError("traffic.trace_file = " + path + ": no packets (expected 'cycle source destination size' lines)");
  return out;
}

}  // namespace icn
