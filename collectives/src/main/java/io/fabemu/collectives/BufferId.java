package io.fabemu.collectives;

/**
 * The buffers one rank uses for one collective operation. Their sizes come from the {@link Schedule}.
 *
 * <ul>
 *   <li>{@link #INPUT}: the send buffer, filled from the {@link InputGenerator}; never written by a schedule.</li>
 *   <li>{@link #OUTPUT}: the receive buffer, where the result lands.</li>
 *   <li>{@link #TEMP}: scratch space (rotations, accumulation of a subtree, reduce-scatter working copy).</li>
 * </ul>
 */
public enum BufferId {
  INPUT, OUTPUT, TEMP
}
