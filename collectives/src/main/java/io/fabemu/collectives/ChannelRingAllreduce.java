package io.fabemu.collectives;

import static io.fabemu.collectives.ScheduleBuilder.chunkCount;
import static io.fabemu.collectives.ScheduleBuilder.chunkStart;
import static io.fabemu.collectives.ScheduleBuilder.mod;

/**
 * NCCL's ring allreduce with channels: the vector is cut into C parts, one per channel, and each channel runs the ring
 * allreduce of {@link RingAllreduce} on its part, all channels step by step together (NCCL runs a channel on its own
 * SMs; a rank with as many engines, {@code RankHost.engines}, runs each channel on its own clock too). The channels
 * differ in where their ring enters and leaves a server (R ranks per server, numbered server by server): channel
 * {@code c} visits the GPUs of an even-numbered server from GPU {@code c} up to GPU {@code c - 1} (mod R) and those of
 * an odd-numbered one back down from GPU {@code c - 1} to GPU {@code c}, so every hop between servers joins two GPUs
 * of one index: even to odd on rail {@code c - 1}, odd to even on rail {@code c}, the hop NCCL's rings keep on a
 * rail-optimized fabric, within one rail leaf (with an odd number of servers the hop from the last server back to the
 * first changes rail). With C up to R channels the hops between servers leave from C different GPUs, through C
 * different NICs: the fabric's NICs work in parallel, which one ring cannot make them do. Within one server every
 * channel's ring is the same cycle.
 *
 * <p>A channel's messages take the channel as their lane ({@link Tags}: the tag's index), so messages of two
 * channels between the same two ranks in the same step are told apart, and where a hop has parallel paths (the
 * spines of a leaf-spine) channel {@code k} takes the {@code k}-th after the flow's own.
 *
 * <p>How many channels a size gets ({@link #channelsFor}): up to the workload's channels, each moving at least
 * {@value #MIN_CHUNK_BYTES} B per rank and step (a modelling choice, as NCCL also lowers its channels for small
 * sizes: the channels of a step end together here, so below it a channel's per-step costs outweigh the wire time it
 * saves), and at least one element per rank.
 */
public final class ChannelRingAllreduce {
  /** Least bytes a channel moves per rank and step: a channel carries at least this times the ranks. */
  public static final long MIN_CHUNK_BYTES = 64 * 1024;

  private ChannelRingAllreduce() {}

  /**
   * The channels an allreduce of {@code count} elements ({@code sizeBytes}) on {@code worldSize} ranks runs on: at
   * most {@code maxChannels}, each carrying at least {@link #MIN_CHUNK_BYTES} B per rank and one element per rank; at
   * least 1.
   */
  public static int channelsFor(long sizeBytes, int count, int worldSize, int maxChannels) {
    int ranks = Math.max(1, worldSize);
    long bySize = sizeBytes / (MIN_CHUNK_BYTES * ranks);
    long byCount = count / ranks;
    return (int) Math.max(1, Math.min(maxChannels, Math.min(bySize, byCount)));
  }

  /**
   * Appends the allreduce of OUTPUT [0, count) (every rank's contribution already there) on {@code channels} rings.
   *
   * @param serverSize ranks per server: the order of each channel's ring inside a server; 1 (the plain order) when it
   *                   does not divide the world
   */
  static void append(ScheduleBuilder b, int p, int me, int count, int channels, int serverSize) {
    if (channels < 1 || channels > WorkloadSpec.MAX_CHANNELS) {
      throw new IllegalArgumentException("channels must be 1 to " + WorkloadSpec.MAX_CHANNELS + ", got " + channels);
    }
    if (p == 1) {
      return;
    }
    int r = serverSize > 1 && p % serverSize == 0 ? serverSize : 1;
    int[] position = new int[channels];
    int[] right = new int[channels];
    int[] left = new int[channels];
    int[] partStart = new int[channels];
    int[] partCount = new int[channels];
    for (int c = 0; c < channels; c++) {
      position[c] = positionOf(me, c, r);
      right[c] = rankAt(mod(position[c] + 1, p), c, r);
      left[c] = rankAt(mod(position[c] - 1, p), c, r);
      partStart[c] = chunkStart(count, channels, c);
      partCount[c] = chunkCount(count, channels, c);
    }
    // Reduce-scatter: step k sends chunk (i-k) of the channel's part and reduces chunk (i-k-1) into it.
    for (int k = 0; k < p - 1; k++) {
      for (int c = 0; c < channels; c++) {
        int i = position[c];
        int s = mod(i - k, p);
        int q = mod(i - k - 1, p);
        b.send(right[c], BufferId.OUTPUT, partStart[c] + chunkStart(partCount[c], p, s),
            chunkCount(partCount[c], p, s), k, c);
        b.receive(left[c], BufferId.OUTPUT, partStart[c] + chunkStart(partCount[c], p, q),
            chunkCount(partCount[c], p, q), true, k, c);
      }
      b.endStep();
    }
    // Allgather: step k sends chunk (i+1-k) and receives chunk (i-k).
    for (int k = 0; k < p - 1; k++) {
      for (int c = 0; c < channels; c++) {
        int i = position[c];
        int s = mod(i + 1 - k, p);
        int q = mod(i - k, p);
        b.send(right[c], BufferId.OUTPUT, partStart[c] + chunkStart(partCount[c], p, s),
            chunkCount(partCount[c], p, s), p - 1 + k, c);
        b.receive(left[c], BufferId.OUTPUT, partStart[c] + chunkStart(partCount[c], p, q),
            chunkCount(partCount[c], p, q), false, p - 1 + k, c);
      }
      b.endStep();
    }
  }

  /**
   * Where {@code rank} sits on channel {@code c}'s ring: its server's block, its GPU counted from GPU c upwards in an
   * even server, from GPU c - 1 downwards in an odd one.
   */
  static int positionOf(int rank, int c, int serverSize) {
    int server = rank / serverSize;
    int gpu = rank % serverSize;
    int step = server % 2 == 0 ? gpu - c : c - 1 - gpu;
    return server * serverSize + mod(step, serverSize);
  }

  /** The rank at {@code position} of channel {@code c}'s ring (the inverse of {@link #positionOf}). */
  static int rankAt(int position, int c, int serverSize) {
    int server = position / serverSize;
    int step = position % serverSize;
    int gpu = server % 2 == 0 ? c + step : c - 1 - step;
    return server * serverSize + mod(gpu, serverSize);
  }
}
