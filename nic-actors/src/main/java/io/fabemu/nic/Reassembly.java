package io.fabemu.nic;

import io.fabemu.core.data.DataBuffer;
import io.fabemu.core.protocol.DeviceProtocol.MessageInfo;
import io.fabemu.core.protocol.DeviceProtocol.Packet;

/** A message being reassembled by the NIC chassis: which of its segments arrived, and when the last was written. */
final class Reassembly {
  /** The segments received so far, by index; null for a message without data. */
  final Packet[] parts;
  /** Which segments arrived (a retransmitted copy of one that did is discarded). */
  final boolean[] arrived;
  int received;
  /** When the latest-written segment so far is in host memory. */
  long lastWrittenPs;

  Reassembly(Packet[] parts, int segments) {
    this.parts = parts;
    this.arrived = new boolean[segments];
  }

  /**
   * The data of a message whose segments are all in: when every segment is a view of one buffer at its place (the
   * sender's NIC cut them from the message in this JVM), that buffer, uncopied; otherwise (segments that crossed
   * members arrive in arrays of their own) a buffer the segments are copied into.
   */
  static DataBuffer data(MessageInfo info, Packet[] parts) {
    DataBuffer whole = DataBuffer.enclosing(parts[0].slice(), parts[0].elementOffset(), info.totalElements());
    boolean views = whole != null;
    for (int i = 1; i < parts.length && views; i++) {
      views = whole.isViewAt(parts[i].elementOffset(), parts[i].slice());
    }
    if (views) {
      return whole;
    }
    DataBuffer data = DataBuffer.allocate(info.dataType(), info.totalElements(), info.withLocations());
    for (Packet part : parts) {
      data.copyFrom(part.elementOffset(), part.slice());
    }
    return data;
  }
}
