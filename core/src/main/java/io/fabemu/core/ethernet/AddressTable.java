package io.fabemu.core.ethernet;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.IntUnaryOperator;

/**
 * The address table of an I/O node's Ethernet NIC (the patent's figure 11): per MAC, the node that owns it and the
 * via node of the detour from the I/O node to that node ({@code DetourTable.DIRECT} = -1 for the direct route,
 * {@code DetourTable.CUT_OFF} = -2 when none reaches it). Entries are registered from outbound frames (the patent's
 * S11-S16), looked up for inbound ones (S34-S36), and their via nodes refreshed when the management node's view
 * changes. Kept in MAC order, so its listing is deterministic.
 */
public final class AddressTable {
  /** What a registration did (the patent's S13-S16). */
  public enum Registration {
    /** The entry was there with the same node and via node (S13: yes). */
    UNCHANGED,
    /** The MAC was there with another node or via node, now replaced (S15). */
    UPDATED,
    /** The MAC was not there (S16). */
    ADDED
  }

  /** One entry: the MAC's node and the via node toward it. */
  public record Entry(long mac, int node, int via) {}

  private final Map<Long, Entry> entries = new TreeMap<>();

  /** Registers or updates {@code mac}'s entry. */
  public Registration register(long mac, int node, int via) {
    Entry old = entries.put(mac, new Entry(mac, node, via));
    if (old == null) return Registration.ADDED;
    return old.node() == node && old.via() == via ? Registration.UNCHANGED : Registration.UPDATED;
  }

  /** {@code mac}'s entry, or null when the table has none (the frame is then broadcast). */
  public Entry lookup(long mac) {
    return entries.get(mac);
  }

  /** Sets every entry's via node to {@code viaToNode} of its node (the management node's new view). */
  public void refresh(IntUnaryOperator viaToNode) {
    for (Map.Entry<Long, Entry> e : entries.entrySet()) {
      Entry old = e.getValue();
      e.setValue(new Entry(old.mac(), old.node(), viaToNode.applyAsInt(old.node())));
    }
  }

  /** Every entry, in MAC order. */
  public List<Entry> entries() {
    return new ArrayList<>(entries.values());
  }

  public int size() {
    return entries.size();
  }
}
