package io.fabemu.switching.inc;

/**
 * An INC group as one switch holds it: its place in the aggregation tree (parent, children and how many children
 * to wait for, learned from the notify; the INC patent's "each switch records its children") and its aggregation slots,
 * one per fragment index, reserved when the group was allocated here.
 */
final class IncGroup {
  /** {@link #parent} before any notify set it. */
  static final int UNCONFIGURED = -2;
  /** {@link #parent} of the tree's root. */
  static final int ROOT = -1;

  final long groupId;
  /** Aggregation slots reserved for the group at this switch (fragment indexes 0..slotCount-1). */
  final int slotCount;
  /**
   * Slots of one window position of a streamed group (the fragments of one chunk); {@link #slotCount} for a group
   * whose messages fit one task.
   */
  final int slotsPerPosition;
  /** Whether this switch caches its children's packets to fill the result into (a TOR: children are hosts). */
  private final boolean cachePackets;
  /** The parent switch's vertex, {@link #ROOT}, or {@link #UNCONFIGURED}. */
  private int parent = UNCONFIGURED;
  private int expectedChildren;
  /** Children's vertices, in the order they became known; the index is the child's bit in the bitmaps. */
  private int[] children;
  private final java.util.HashMap<Integer, Integer> indexOfChild = new java.util.HashMap<>();
  private int childCount;
  private final IncSlot[] slots;

  IncGroup(long groupId, int slotCount, boolean cachePackets) {
    this(groupId, slotCount, slotCount, cachePackets);
  }

  /** A streamed group: {@code slotCount} slots in window positions of {@code slotsPerPosition} each. */
  IncGroup(long groupId, int slotCount, int slotsPerPosition, boolean cachePackets) {
    this.groupId = groupId;
    this.slotCount = slotCount;
    this.slotsPerPosition = slotsPerPosition;
    this.cachePackets = cachePackets;
    this.slots = new IncSlot[slotCount];
  }

  /**
   * Sets the tree's shape at this switch; a second notify of the group must agree with the first.
   *
   * @return null when set or consistent, else why not
   */
  String configure(int parentVertex, int expected) {
    if (expected < 1) {
      return "a notify says to expect " + expected + " children";
    }
    if (parent == UNCONFIGURED) {
      parent = parentVertex;
      expectedChildren = expected;
      children = new int[expected];
      return null;
    }
    if (parent != parentVertex || expectedChildren != expected) {
      return "notifies disagree: parent " + describeParent(parent) + " and " + expectedChildren
          + " children, then parent " + describeParent(parentVertex) + " and " + expected + " children";
    }
    return null;
  }

  private static String describeParent(int vertex) {
    return vertex == ROOT ? "none (root)" : "vertex " + vertex;
  }

  boolean configured() {
    return parent != UNCONFIGURED;
  }

  boolean isRoot() {
    return parent == ROOT;
  }

  int parent() {
    return parent;
  }

  int expectedChildren() {
    return expectedChildren;
  }

  int childCount() {
    return childCount;
  }

  int child(int index) {
    return children[index];
  }

  /**
   * The index of child {@code vertex}, recording it when it is new and there is room.
   *
   * @return the index, or -1 when the vertex is new but every expected child is known already
   */
  int childIndex(int vertex) {
    // A map, not a scan: a SPINE over thousands of TORs looks a child up for every fragment it gets.
    Integer known = indexOfChild.get(vertex);
    if (known != null) return known;
    if (childCount == expectedChildren) {
      return -1;
    }
    children[childCount] = vertex;
    indexOfChild.put(vertex, childCount);
    return childCount++;
  }

  /** The slot of fragment {@code index}, created on first use; null when the index is beyond the reservation. */
  IncSlot slot(int index) {
    if (index >= slotCount) {
      return null;
    }
    IncSlot slot = slots[index];
    if (slot == null) {
      slot = new IncSlot(expectedChildren, cachePackets);
      slots[index] = slot;
    }
    return slot;
  }

  /** The slot of fragment {@code index} if it was ever used, else null. */
  IncSlot existingSlot(int index) {
    return index < slotCount ? slots[index] : null;
  }
}
