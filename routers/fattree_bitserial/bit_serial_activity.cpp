// BitSerialFatTree::activity(): the switches' counters summed level by level
// and the bits each kind of wire of a level's branch carried (BitChannel
// counts what is driven on it), read once when the results are written.
#include "routers/fattree_bitserial/bit_serial_fat_tree.hpp"

namespace icn::bitserial {

std::vector<BitSerialLevelActivity> BitSerialFatTree::activity() const {
  const unsigned h = shape_.height();
  std::vector<BitSerialLevelActivity> levels(h);
  for (unsigned level = 1; level <= h; ++level) {
    BitSerialLevelActivity& a = levels[level - 1];
    a.level = level;
    a.capacity = shape_.capacity(level);
    a.switches = switches_[level].size();
    a.paths = 2 * shape_.capacity(level) + (level < h ? shape_.capacity(level + 1) : 0);
    for (const auto& sw : switches_[level]) {
      a.activity += sw->activity();
      a.ack_bits_switched += sw->ack_bits_switched();
    }
  }
  // Every branch has cap paths up and cap down, and a reverse wire beside each
  // (and with flushing a flush wire beside each down path).
  for (const Branch& b : branches_) {
    BitSerialLevelActivity& a = levels[b.level - 1];
    a.data_wires += b.up->width() + b.down->width();
    a.ack_wires += b.up_ack->width() + b.down_ack->width();
    a.bits_up += b.up->bits_driven();
    a.bits_down += b.down->bits_driven();
    a.ack_bits += b.up_ack->bits_driven() + b.down_ack->bits_driven();
    if (b.down_flush != nullptr) {
      a.flush_wires += b.down_flush->width();
      a.flush_bits += b.down_flush->bits_driven();
    }
  }
  return levels;
}

std::uint64_t BitSerialFatTree::streams_started() const {
  std::uint64_t n = 0;
  for (const DeliveryCycleCounts& c : counts_) n += c.sent;
  return n;
}

std::uint64_t BitSerialFatTree::messages_received() const {
  std::uint64_t n = 0;
  for (const auto& nic : nics_) n += nic->received();
  return n;
}

}  // namespace icn::bitserial
