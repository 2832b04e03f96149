package io.fabemu.collectives;

/**
 * A copy inside the rank's own memory, e.g. its own block of an allgather or a rotation after Bruck's algorithm.
 *
 * @param from       source buffer
 * @param fromOffset first source element
 * @param to         target buffer (never {@link BufferId#INPUT})
 * @param toOffset   first target element
 * @param count      elements copied
 */
public record LocalCopy(BufferId from, int fromOffset, BufferId to, int toOffset, int count) {

  public LocalCopy {
    if (fromOffset < 0 || toOffset < 0 || count < 0) {
      throw new IllegalArgumentException("negative region in local copy");
    }
    if (to == BufferId.INPUT) {
      throw new IllegalArgumentException("a schedule never writes the input buffer");
    }
  }
}
