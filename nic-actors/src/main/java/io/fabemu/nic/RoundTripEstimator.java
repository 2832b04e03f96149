package io.fabemu.nic;

/**
 * A smoothed round-trip time and its variation, as RFC 6298 keeps them for TCP's retransmission timer, in virtual
 * picoseconds and integer arithmetic (so the same samples give the same timeout on every host): the first sample R
 * sets the smoothed time to R and the variation to R/2; each later one moves the variation a quarter of the way to
 * |smoothed - R| and the smoothed time an eighth of the way to R. The timeout is smoothed + 4 x variation.
 *
 * <p>Plain state, fed by the reliable transport; not thread-safe (one device's).
 */
final class RoundTripEstimator {
  private long smoothedPs;
  private long variationPs;
  private long samples;

  /** Takes the round trip of a message sent once and acknowledged, {@code roundTripPs} (at least 0). */
  void sample(long roundTripPs) {
    if (roundTripPs < 0) throw new IllegalArgumentException("a round trip cannot be negative: " + roundTripPs + " ps");
    if (samples++ == 0) {
      smoothedPs = roundTripPs;
      variationPs = roundTripPs / 2;
      return;
    }
    variationPs = (3 * variationPs + Math.abs(smoothedPs - roundTripPs)) / 4;
    smoothedPs = (7 * smoothedPs + roundTripPs) / 8;
  }

  /** Whether any round trip was measured yet. */
  boolean hasSamples() {
    return samples > 0;
  }

  /** Smoothed + 4 x variation; 0 before the first sample. */
  long timeoutPs() {
    return smoothedPs + 4 * variationPs;
  }

  long smoothedPs() {
    return smoothedPs;
  }

  long variationPs() {
    return variationPs;
  }

  long sampleCount() {
    return samples;
  }
}
