package io.fabemu.node.rank;

import io.fabemu.core.protocol.Message;

/**
 * What a rank's collective code needs from the machine it runs on: a way to hand messages to the network (or to
 * shared memory) and the CPU costs of the host. The compute-node device implements it for the ranks it hosts; tests
 * implement it with an ideal network. A collective never knows which one it runs on.
 *
 * <p>All times are virtual picoseconds. Costs must not depend on the wall clock or on unseeded randomness.
 */
public interface RankHost {

  /**
   * Hands a message to the network (or to shared memory) at virtual time {@code atPs}. The payload is the sender's
   * own copy: the host may keep it, and the sender never touches it again.
   */
  void send(Message message, long atPs);

  /** CPU time to post one message. */
  long sendOverheadPs();

  /** CPU time to complete one received message. */
  long recvOverheadPs();

  /** CPU time to reduce {@code bytes} of received data into a buffer. */
  long reducePs(long bytes);

  /** CPU time to copy {@code bytes} within the rank's own memory. */
  long localCopyPs(long bytes);

  /**
   * Engines the rank's transfers run on, each with its own timeline: 1 for a CPU rank; a GPU's SM groups, one per
   * NCCL channel ({@link ScheduleExecutor}: a transfer on lane k runs on engine k mod engines).
   */
  default int engines() {
    return 1;
  }
}
