package io.fabemu.switching.router;

import java.util.Arrays;

/**
 * The virtual-channel allocator of a {@link RouterCore}, the output stage of BookSim's separable input-first
 * allocator: in a cycle each waiting head requests one output virtual channel ({@link #request}), and each requested
 * output virtual channel grants one of its requesters ({@link #allocate}), round-robin: the first input virtual
 * channel at or after the one following its last grant. Which output channel a head requests (its own round-robin
 * pointer over the free channels of its class) is the router's choice, made before it asks.
 *
 * <p>Plain state, no allocation per cycle: the winners of the last {@link #allocate} are read by index until the
 * next {@link #request}.
 */
final class VirtualChannelAllocator {
  private final int inputVcs;
  /** Per output virtual channel: the input virtual channel its arbiter favours. */
  private final int[] pointer;
  /** Per output virtual channel: the requester winning so far in this cycle, or -1. */
  private final int[] winner;
  /** The output virtual channels requested in this cycle, in the order first requested. */
  private final int[] requested;
  private int requestedCount;
  /** The winners of the last allocation: input and output virtual channel of each grant. */
  private final int[] grantedInput;
  private final int[] grantedOutput;
  private int grantedCount;

  /**
   * @param inputVcs  input virtual channels (indices 0 to inputVcs - 1)
   * @param outputVcs output virtual channels (indices 0 to outputVcs - 1)
   */
  VirtualChannelAllocator(int inputVcs, int outputVcs) {
    if (inputVcs < 1 || outputVcs < 1) {
      throw new IllegalArgumentException("virtual channels must be positive, got " + inputVcs + " in and " + outputVcs
          + " out");
    }
    this.inputVcs = inputVcs;
    pointer = new int[outputVcs];
    winner = new int[outputVcs];
    Arrays.fill(winner, -1);
    requested = new int[outputVcs];
    grantedInput = new int[outputVcs];
    grantedOutput = new int[outputVcs];
  }

  /** Input virtual channel {@code iv} asks for output virtual channel {@code ov} in this cycle. */
  void request(int iv, int ov) {
    int current = winner[ov];
    if (current < 0) {
      requested[requestedCount++] = ov;
      winner[ov] = iv;
    } else if (Math.floorMod(iv - pointer[ov], inputVcs) < Math.floorMod(current - pointer[ov], inputVcs)) {
      winner[ov] = iv;
    }
  }

  /**
   * Grants every requested output virtual channel to its round-robin winner and moves its pointer past the winner;
   * returns the grants (read with {@link #grantedInput} and {@link #grantedOutput}), in the order the output channels
   * were first requested.
   */
  int allocate() {
    for (int k = 0; k < requestedCount; k++) {
      int ov = requested[k];
      int iv = winner[ov];
      winner[ov] = -1;
      pointer[ov] = (iv + 1) % inputVcs;
      grantedInput[k] = iv;
      grantedOutput[k] = ov;
    }
    grantedCount = requestedCount;
    requestedCount = 0;
    return grantedCount;
  }

  /** The input virtual channel of grant {@code k} of the last allocation. */
  int grantedInput(int k) {
    return grantedInput[checked(k)];
  }

  /** The output virtual channel of grant {@code k} of the last allocation. */
  int grantedOutput(int k) {
    return grantedOutput[checked(k)];
  }

  private int checked(int k) {
    if (k < 0 || k >= grantedCount) {
      throw new IndexOutOfBoundsException("grant " + k + " of " + grantedCount);
    }
    return k;
  }
}
