package io.fabemu.switching.router;

import java.util.Arrays;

/**
 * The switch allocator of a {@link RouterCore}, BookSim's separable input-first allocator with round-robin arbiters:
 * each input port picks one of its virtual channels that may send in this cycle ({@link #offer}: the first at or
 * after the one following its last winner), then each output port grants one of the input ports whose pick goes to
 * it ({@link #allocate}: the first at or after the one following its last grant). So per cycle each input port sends
 * and each output port takes at most one flit.
 *
 * <p>Plain state, no allocation per cycle: the winners of the last {@link #allocate} are read by index until the
 * next {@link #offer}.
 */
final class SwitchAllocator {
  private final int portCount;
  private final int vcCount;
  /** Per input port: the virtual channel (0 to vcCount - 1) its arbiter favours. */
  private final int[] inputPointer;
  /** Per output port: the input port its arbiter favours. */
  private final int[] outputPointer;
  /** Per input port: its pick in this cycle (an input virtual channel), or -1. */
  private final int[] inputChoice;
  /** The input ports with a pick in this cycle, in the order they first had one. */
  private final int[] choosing;
  private int choosingCount;
  /** Per output port: the input port winning it so far in this cycle, or -1. */
  private final int[] outputWinner;
  /** The output ports asked for in this cycle, in the order first asked. */
  private final int[] contested;
  private int contestedCount;
  /** The input virtual channels granted by the last allocation, in the order their output ports were first asked. */
  private final int[] granted;
  private int grantedCount;

  /**
   * @param portCount ports (input and output ports alike, the local one included)
   * @param vcCount   virtual channels per input port; input virtual channel {@code iv} is on port
   *                  {@code iv / vcCount}
   */
  SwitchAllocator(int portCount, int vcCount) {
    if (portCount < 1 || vcCount < 1) {
      throw new IllegalArgumentException("ports and virtual channels must be positive, got " + portCount + " and "
          + vcCount);
    }
    this.portCount = portCount;
    this.vcCount = vcCount;
    inputPointer = new int[portCount];
    outputPointer = new int[portCount];
    inputChoice = new int[portCount];
    Arrays.fill(inputChoice, -1);
    choosing = new int[portCount];
    outputWinner = new int[portCount];
    Arrays.fill(outputWinner, -1);
    contested = new int[portCount];
    granted = new int[portCount];
  }

  /** Input virtual channel {@code iv} has a flit that may cross in this cycle. */
  void offer(int iv) {
    int port = iv / vcCount;
    int chosen = inputChoice[port];
    if (chosen < 0) {
      choosing[choosingCount++] = port;
      inputChoice[port] = iv;
    } else if (Math.floorMod(iv - port * vcCount - inputPointer[port], vcCount)
        < Math.floorMod(chosen - port * vcCount - inputPointer[port], vcCount)) {
      inputChoice[port] = iv;
    }
  }

  /**
   * Each output port grants one of the input ports whose pick goes to it ({@code outputPortOf[iv]}: the output port
   * of input virtual channel {@code iv}'s packet); moves both arbiters' pointers past each winner and returns how many
   * input virtual channels won ({@link #granted}).
   */
  int allocate(int[] outputPortOf) {
    for (int k = 0; k < choosingCount; k++) {
      int port = choosing[k];
      int output = outputPortOf[inputChoice[port]];
      int current = outputWinner[output];
      if (current < 0) {
        contested[contestedCount++] = output;
        outputWinner[output] = port;
      } else if (Math.floorMod(port - outputPointer[output], portCount)
          < Math.floorMod(current - outputPointer[output], portCount)) {
        outputWinner[output] = port;
      }
    }
    for (int k = 0; k < contestedCount; k++) {
      int output = contested[k];
      int port = outputWinner[output];
      outputWinner[output] = -1;
      int iv = inputChoice[port];
      inputPointer[port] = (iv - port * vcCount + 1) % vcCount;
      outputPointer[output] = (port + 1) % portCount;
      granted[k] = iv;
    }
    for (int k = 0; k < choosingCount; k++) {
      inputChoice[choosing[k]] = -1;
    }
    grantedCount = contestedCount;
    choosingCount = 0;
    contestedCount = 0;
    return grantedCount;
  }

  /** The input virtual channel of grant {@code k} of the last allocation. */
  int granted(int k) {
    if (k < 0 || k >= grantedCount) {
      throw new IndexOutOfBoundsException("grant " + k + " of " + grantedCount);
    }
    return granted[k];
  }
}
