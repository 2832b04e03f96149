package io.fabemu.cluster.scenario;

import io.fabemu.collectives.Algorithm;
import io.fabemu.collectives.ChannelRingAllreduce;
import io.fabemu.collectives.Collective;
import io.fabemu.collectives.DoubleBinaryTree;
import io.fabemu.collectives.IncAllreduce;
import io.fabemu.collectives.PipelineSpec;
import io.fabemu.collectives.Schedules;
import io.fabemu.collectives.WorkloadSpec;
import io.fabemu.core.router.RouterSpec;
import io.fabemu.core.topology.TopologySpec;
import io.fabemu.core.traffic.TrafficSpec;
import io.fabemu.fabric.ScenarioSpec;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Set;

/**
 * What a run of a scenario will cost, estimated before anything is built: the heap it needs at its peak and the
 * device events it handles (and so, at a measured rate, roughly its wall time).
 *
 * <p>Contract: {@link #of} is arithmetic over counts only (ranks, hosts, switches, links, sizes, algorithms,
 * iterations, payload kind, the messages of each algorithm's schedule as a formula of the world size, the message
 * buffers): it builds no topology, schedule or device, so it answers in microseconds even for 4,194,304 ranks. The
 * heap is the peak live set (the JVM and the actor system, every device, the schedules, the buffers of the largest
 * case on every rank with the messages it has in flight, the results) with room for the collector; it errs high,
 * within about 2x of the runs calibrated in docs/performance.md ("Pre-flight estimate"). The events follow the
 * same counts: messages per rank per operation, packets per message and link hops per packet, within the
 * tolerance {@code ResourceEstimateTest} holds small runs to; the collective workloads on a leaf-spine are what is
 * calibrated, the other fabrics err higher. Virtual time and results never depend on it: it only lets the CLI
 * refuse or warn before a run that cannot fit. {@link MemberHeapEstimate} spreads it over the members of a run.
 *
 * <p>What it prints ({@link #summary}) is a range, as measured against every shipped example (docs/performance.md,
 * "The estimate against the examples"): the heap from {@link #heapBytes} (the -Xmx the run needs) to what a JVM
 * with a large default heap lets it grow to before collecting ({@link #heapHighBytes}), and the wall time from half
 * to twice {@link #seconds}.
 *
 * @param heapBytes     heap the whole run needs at its peak, on one member
 * @param resultBytes   of which the results (per rank and case), which the coordinator alone holds
 * @param baseBytes     of which the JVM, classes and the actor system, held by every member
 * @param events        device events the run handles (a baseline run of a fault plan included)
 * @param seconds       the wall seconds the run's emulation takes on one member of this project's 2-core machine
 *                      (the run's own wall time, JVM start not included): its setup, its events at the rate of
 *                      their kind and its real data at the rate the ranks move, reduce and check it
 */
public record ResourceEstimate(long heapBytes, long resultBytes, long baseBytes, long events, double seconds) {

  /*
   * The wall time is fitted to the whole command's elapsed time on every shipped example (2026-12-02, this project's
   * 2-core machine shared with others, one member, default heap; docs/performance.md, "The estimate against the
   * examples"): a fixed start, then the events of each kind and the real data at their own rates.
   */
  /** Events per wall second of the NICs, switches, compute nodes and ranks (messages, packets, link hops). */
  public static final long EVENTS_PER_SECOND = 1_500_000;
  /** Events per wall second of a router network's flits, credits and router cycles (several times cheaper). */
  public static final long ROUTER_EVENTS_PER_SECOND = 4_000_000;
  /** Real data bytes sent per wall second: each is generated, copied or reduced, and checked on its way. */
  static final double DATA_BYTES_PER_SECOND = 1e9;
  /**
   * The JVM's and the actor system's start, loading and checking the scenario, building the fabric and writing the
   * results: 3.3–4.2 s for the examples that handle under 0.3 M events.
   */
  static final double SETUP_SECONDS = 3.5;
  /** What each further offered load of a traffic sweep adds: a fabric of its own and its drain. */
  static final double SECONDS_PER_TRAFFIC_LOAD = 0.5;
  /**
   * What a JVM with a large default heap (a quarter of 24 GiB) lets a run grow to before it collects: G1 sizes its
   * young generation from the heap, so even a run whose live set is 20 MiB reached 340–650 MiB (the mesh, torus and
   * INC examples). The upper end of the printed range is the estimate plus this, or twice it.
   */
  static final long YOUNG_GENERATION_BYTES = 512L << 20;

  /** The algorithms whose messages go to the next rank (leaf-spine: mostly within the TOR). */
  static final Set<Algorithm> RING_LIKE = EnumSet.of(Algorithm.RING, Algorithm.MULTI_RING, Algorithm.SINGLE_RING,
      Algorithm.BIDIRECTIONAL_RING, Algorithm.LINE, Algorithm.LINE_BOTH_ENDS);

  /**
   * The JVM, loaded classes, Pekko's actor system and the CLI, before any device: the soak's coordinator holds 16 MiB
   * after a full GC between runs (docs/reliability.md) and the quickstart runs under -Xmx160m, so 64 MiB is on the
   * high side without refusing small scenarios on small heaps (a 1 GiB container's default heap is 256 MiB).
   */
  static final long BASE_BYTES = 64L << 20;
  /** A host's NIC and compute node, their actors and mailboxes, its share of switches and routes. */
  static final long HOST_BYTES = 12L << 10;
  /** A rank's workload, executor, buffer recycler and results of the running case. */
  static final long RANK_BYTES = 4L << 10;
  /** A switch or router and its actor (its ports and queues). */
  static final long SWITCH_BYTES = 16L << 10;
  /** A link's counters and its egress queue. */
  static final long LINK_BYTES = 512;
  /** One message of a rank's schedule (its send and receive steps, tags, offsets). */
  static final long SCHEDULE_BYTES_PER_MESSAGE = 256;
  /** One rank's figures of one case (mean, min, max, outcome) and the JSON row they become. */
  static final long RESULT_BYTES_PER_RANK_CASE = 192;
  /** Room the collector needs above the live set (G1 runs out of memory well before the heap is all live). */
  static final double COLLECTOR_HEADROOM = 1.3;
  /** Messages a rank holds at once besides its own buffers: the one in flight and one that came early. */
  static final int MESSAGES_HELD = 2;
  /** Events per flit and router hop on a router network: the flit, its credit and the router's cycle. */
  static final double ROUTER_EVENTS_PER_FLIT_HOP = 3;

  /** An estimate whose wall time is its events at {@link #EVENTS_PER_SECOND}. */
  public ResourceEstimate(long heapBytes, long resultBytes, long baseBytes, long events) {
    this(heapBytes, resultBytes, baseBytes, events, (double) events / EVENTS_PER_SECOND);
  }

  /**
   * The estimate of {@code spec} as {@code fabemu run} would run it (every case, the warm-up and the timed
   * iterations, the barrier before each, a baseline run when its fault plan asks for one).
   */
  public static ResourceEstimate of(ScenarioSpec spec) {
    TopologySpec topology = spec.topology();
    long hosts = topology.hosts();
    long switches = topology.switchCount();
    long links = topology.cableCount();
    if (spec.runsTraffic()) return traffic(spec, hosts, switches, links);
    WorkloadSpec w = spec.workload();
    long ranks = hosts * w.ppn();
    int elementBytes = Schedules.elementBytes(w.collective(), w.dataType(), w.op());
    long segmentBytes = spec.devices().nic().segmentBytes();
    double hopEvents = topology.meanLinkHops(false);
    double neighbourHopEvents = topology.meanLinkHops(true);
    // On a router network every hop of a packet is its flits' events (flit, credit, router cycle), counted apart:
    // they run several times faster than the NICs' events.
    RouterSpec router = routerOf(spec, topology);
    long headerFlits = router == null ? 0
        : Math.max(1, (spec.devices().nic().headerBytes() + router.flitBytes() - 1) / router.flitBytes());

    long scheduleMessages = 0;
    long dataBytesPerRank = 0;
    double answerBytes = 0;
    double events = 0;
    double routerEvents = 0;
    double dataBytes = 0;
    int barrierMessages = logCeil(ranks);
    // The embedding is computed when the scenario is loaded: a multi-ring collective runs on all of its rings.
    int multiRings = spec.rings() == null ? 1 : Math.max(1, spec.rings().rings().size());
    for (int c = 0; c < w.caseCount(); c++) {
      Algorithm algorithm = algorithmOfCase(w, c, ranks);
      long sizeBytes = Math.max(w.sizeOfCase(c), 0);
      Traffic t = w.collective() == Collective.PIPELINE ? pipelineTraffic(w.pipeline(), ranks, sizeBytes)
          : traffic(w.collective(), algorithm, ranks, sizeBytes, w.window(), multiRings);
      t = onChannels(t, w, algorithm, ranks, sizeBytes, elementBytes);
      scheduleMessages = Math.max(scheduleMessages, t.messages());
      double operations = ranks * (w.warmup() + (double) w.iterations());
      if (!w.syntheticOfCase(c)) {
        dataBytesPerRank = Math.max(dataBytesPerRank, buffers(w, ranks, sizeBytes)
            + MESSAGES_HELD * t.largestMessageBytes());
        dataBytes += operations * t.bytes();
      }
      double packets = t.messages() + (double) t.bytes() / Math.max(segmentBytes, elementBytes);
      double hops = RING_LIKE.contains(algorithm) ? neighbourHopEvents : hopEvents;
      if (router == null) {
        double perRank = 2.0 * (t.messages() + barrierMessages) + packets * hops + barrierMessages * hopEvents;
        events += perRank * operations;
      } else {
        double flits = (double) t.bytes() / router.flitBytes() + (packets + barrierMessages) * headerFlits;
        events += 2.0 * (t.messages() + barrierMessages) * operations;
        routerEvents += ROUTER_EVENTS_PER_FLIT_HOP * hops * flits * operations;
      }
    }
    // The expected answers of the reducing collectives: one reduction per size on real data, kept for the run.
    if (w.collective().reduces() && !w.syntheticPayload()) {
      for (long sizeBytes : w.sizesBytes().stream().distinct().toList()) {
        if (w.syntheticAtSize(sizeBytes)) continue;
        answerBytes += w.collective() == Collective.REDUCE_SCATTER ? (double) ranks * sizeBytes : sizeBytes;
      }
    }
    if (spec.runsBaseline()) {
      events *= 2;
      routerEvents *= 2;
      dataBytes *= 2;
    }

    // In doubles: 4,194,304 ranks of 1 GiB buffers overflow a long, and the answer then is only "far too much".
    double live = (double) hosts * HOST_BYTES + (double) ranks * RANK_BYTES + (double) switches * SWITCH_BYTES
        + (double) links * LINK_BYTES + (double) ranks * (scheduleMessages + barrierMessages)
        * SCHEDULE_BYTES_PER_MESSAGE + (double) ranks * dataBytesPerRank + answerBytes;
    double results = (double) ranks * w.caseCount() * (RESULT_BYTES_PER_RANK_CASE + 8.0 * w.iterations());
    double seconds = SETUP_SECONDS + events / EVENTS_PER_SECOND + routerEvents / ROUTER_EVENTS_PER_SECOND
        + dataBytes / DATA_BYTES_PER_SECOND;
    return new ResourceEstimate(BASE_BYTES + (long) ((live + results) * COLLECTOR_HEADROOM),
        (long) (results * COLLECTOR_HEADROOM), BASE_BYTES, (long) (events + routerEvents), seconds);
  }

  /**
   * The upper end of the heap range: what the run grows to in a JVM with a large default heap before it collects,
   * {@link #heapBytes} plus {@link #YOUNG_GENERATION_BYTES} or twice it, whichever is more.
   */
  public long heapHighBytes() {
    return Math.max(2 * heapBytes, heapBytes + YOUNG_GENERATION_BYTES);
  }

  /**
   * The estimate as {@code fabemu validate} prints it, as ranges: {@code about 2.3–4.6 GiB of heap, 41 M events
   * (~20–80 s)}. The heap's lower end is what the run needs (its -Xmx), the upper what it grows to on a large heap.
   */
  public String summary() {
    return "about " + formatRange(heapBytes, heapHighBytes()) + " of heap, " + formatCount(events) + " events (~"
        + formatSecondsRange(seconds / 2, seconds * 2) + ")";
  }

  /** Two byte counts as a range: {@code 69–581 MiB}, {@code 1.2–2.4 GiB}, {@code 512 MiB–1.5 GiB}. */
  static String formatRange(long lowBytes, long highBytes) {
    String low = formatBytes(lowBytes);
    String high = formatBytes(highBytes);
    String lowUnit = low.substring(low.indexOf(' '));
    return high.endsWith(lowUnit) ? low.substring(0, low.indexOf(' ')) + "–" + high : low + "–" + high;
  }

  /** Two durations as a range: {@code 2.0–8.0 s}, {@code 20–80 s}, {@code 40 s–3 min}. */
  static String formatSecondsRange(double low, double high) {
    String lo = formatSeconds(low);
    String hi = formatSeconds(high);
    String loUnit = lo.substring(lo.indexOf(' '));
    return hi.endsWith(loUnit) ? lo.substring(0, lo.indexOf(' ')) + "–" + hi : lo + "–" + hi;
  }

  /** Bytes as {@code 512 MiB}, {@code 2.3 GiB}, {@code 41 GiB} or {@code 9.5 TiB}. */
  public static String formatBytes(long bytes) {
    double gib = bytes / (double) (1L << 30);
    if (gib >= 1024 * 1024) return String.format(Locale.ROOT, "%.0f TiB", gib / 1024);
    if (gib >= 1024) return String.format(Locale.ROOT, "%.1f TiB", gib / 1024);
    if (gib >= 10) return String.format(Locale.ROOT, "%.0f GiB", gib);
    if (gib >= 1) return String.format(Locale.ROOT, "%.1f GiB", gib);
    return String.format(Locale.ROOT, "%d MiB", Math.max(1, bytes >> 20));
  }

  /** A count as {@code 850}, {@code 41 k}, {@code 41 M} or {@code 3.2 G}. */
  static String formatCount(long n) {
    if (n >= 10_000_000_000L) return String.format(Locale.ROOT, "%.0f G", n / 1e9);
    if (n >= 1_000_000_000L) return String.format(Locale.ROOT, "%.1f G", n / 1e9);
    if (n >= 1_000_000L) return String.format(Locale.ROOT, "%.0f M", n / 1e6);
    if (n >= 10_000L) return String.format(Locale.ROOT, "%.0f k", n / 1e3);
    return Long.toString(n);
  }

  /** Seconds as {@code 70 s}, {@code 12 min}, {@code 5.0 h} or {@code 41 days}. */
  static String formatSeconds(double s) {
    if (s >= 3 * 86400) return String.format(Locale.ROOT, "%.0f days", s / 86400);
    if (s >= 3 * 3600) return String.format(Locale.ROOT, "%.1f h", s / 3600);
    if (s >= 180) return String.format(Locale.ROOT, "%.0f min", s / 60);
    if (s >= 10) return String.format(Locale.ROOT, "%.0f s", s);
    return String.format(Locale.ROOT, "%.1f s", s);
  }

  /** A synthetic-traffic scenario: the devices, and every measured packet's latency kept for the exact p99. */
  private static ResourceEstimate traffic(ScenarioSpec spec, long hosts, long switches, long links) {
    TrafficSpec t = spec.traffic();
    double highest = t.offeredFlitsPerNodeCycle().stream().mapToDouble(Double::doubleValue).max().orElse(0);
    long cycles = t.warmupCycles() + t.measureCycles() + t.drainCycles();
    double measured = hosts * t.measureCycles() * highest / Math.max(1, t.packetFlits());
    double live = (double) hosts * HOST_BYTES + (double) switches * SWITCH_BYTES + (double) links * LINK_BYTES
        + measured * 16;
    // Every flit crosses its hops (and the links in and out of the network) as a flit and a credit, with a router
    // cycle per router it passes. The sweep stops at the first saturated load: loads are counted up to the first at
    // or above the saturation guess.
    double hops = spec.topology().meanRouterHops() + 1;
    double saturation = spec.topology().saturationLoadGuess();
    double events = 0;
    int loads = 0;
    for (double load : t.offeredFlitsPerNodeCycle()) {
      loads++;
      events += hosts * cycles * load / Math.max(1, t.packetFlits())
          * (2 + ROUTER_EVENTS_PER_FLIT_HOP * t.packetFlits() * hops);
      if (load >= saturation) break;
    }
    double seconds = SETUP_SECONDS + SECONDS_PER_TRAFFIC_LOAD * loads + events / ROUTER_EVENTS_PER_SECOND;
    return new ResourceEstimate(BASE_BYTES + (long) (live * COLLECTOR_HEADROOM), 0, BASE_BYTES, (long) events,
        seconds);
  }

  /** The case's algorithm as it will run: AUTO resolved, and a pipeline's method taken as is. */
  private static Algorithm algorithmOfCase(WorkloadSpec w, int c, long ranks) {
    if (w.collective() == Collective.PIPELINE) return w.algorithmOfCase(c);
    try {
      return Schedules.resolveForCase(w, c, (int) ranks);
    } catch (IllegalArgumentException e) {
      return w.algorithmOfCase(c);
    }
  }

  /** One rank's messages per operation, the bytes it sends in all and its largest message. */
  record Traffic(long messages, long bytes, long largestMessageBytes) {}

  /**
   * {@code t} of a flat ring allreduce on the channels its size gets ({@link ChannelRingAllreduce#channelsFor}): each
   * channel's ring sends its messages, the bytes split between them; every other case as it is.
   */
  static Traffic onChannels(Traffic t, WorkloadSpec w, Algorithm algorithm, long ranks, long sizeBytes,
                            int elementBytes) {
    if (w.channels() == 1 || algorithm != Algorithm.RING || w.collective() != Collective.ALLREDUCE
        || w.hierarchical()) {
      return t;
    }
    int count = (int) Math.min(Integer.MAX_VALUE, sizeBytes / Math.max(1, elementBytes));
    int channels = ChannelRingAllreduce.channelsFor(sizeBytes, count, (int) Math.min(Integer.MAX_VALUE, ranks),
        w.channels());
    return new Traffic(channels * t.messages(), t.bytes(), Math.max(1, t.largestMessageBytes() / channels));
  }

  /**
   * One rank's share of an operation of {@code collective} by {@code algorithm} on {@code ranks} ranks of
   * {@code sizeBytes} each (per block where the collective has one block per rank), from the algorithms' formulas:
   * rooted and tree algorithms are averaged over the ranks. {@code multiRings}: the rings a multi-ring collective
   * runs on (the scenario's embedding).
   */
  static Traffic traffic(Collective collective, Algorithm algorithm, long ranks, long sizeBytes, int window,
                         int multiRings) {
    long log = logCeil(ranks);
    boolean blocks = collective.oneBlockPerRank();
    switch (algorithm) {
      case MULTI_RING:
      case BIDIRECTIONAL_RING:
        // The ring's messages on each of its rings at once, the bytes split between them.
        long rings = algorithm == Algorithm.BIDIRECTIONAL_RING ? 2 : multiRings;
        Traffic one = traffic(collective, Algorithm.RING, ranks, sizeBytes, window, 1);
        return new Traffic(rings * one.messages(), one.bytes(), one.largestMessageBytes());
      case RING:
      case SINGLE_RING:
      case LINE:
      case LINE_BOTH_ENDS:
      case DIMENSION_RING:
        if (collective == Collective.SENDRECV) return new Traffic(1, sizeBytes, sizeBytes);
        if (blocks) return new Traffic(ranks - 1, (ranks - 1) * sizeBytes, sizeBytes);
        // Allreduce: a reduce-scatter and an all-gather of chunks of size / ranks.
        long chunk = Math.max(1, sizeBytes / ranks);
        return new Traffic(2 * (ranks - 1), 2 * sizeBytes, chunk);
      case RECURSIVE_DOUBLING:
        // A world that is no power of two adds a step before and after.
        long steps = log + (Long.bitCount(ranks) == 1 ? 0 : 2);
        if (blocks) return new Traffic(steps, (ranks - 1) * sizeBytes, ranks * sizeBytes / 2);
        return new Traffic(steps, steps * sizeBytes, sizeBytes);
      case RABENSEIFNER:
      case RECURSIVE_HALVING:
        if (blocks) return new Traffic(log, ranks * sizeBytes, ranks * sizeBytes / 2);
        return new Traffic(2 * log + 2, 2 * sizeBytes, sizeBytes);
      case BINOMIAL:
        if (blocks) return new Traffic(2, sizeBytes * Math.max(1, log) / 2 + sizeBytes, ranks * sizeBytes / 2);
        return new Traffic(collective == Collective.ALLREDUCE ? 2 : 1,
            collective == Collective.ALLREDUCE ? 2 * sizeBytes : sizeBytes, sizeBytes);
      case TREE: {
        // Every rank sends its vector up once and the result down to its children (about one each), in chunks.
        long chunkBytes = Math.min(sizeBytes, 4L * DoubleBinaryTree.CHUNK_ELEMENTS);
        long chunks = Math.max(2, 2 * ((sizeBytes + chunkBytes - 1) / Math.max(1, chunkBytes)));
        return new Traffic(2 * chunks, 2 * sizeBytes, chunkBytes);
      }
      case LINEAR:
        return new Traffic(2, 2 * sizeBytes, sizeBytes);
      case PAIRWISE:
        return new Traffic(ranks - 1, (ranks - 1) * sizeBytes, sizeBytes);
      case DISSEMINATION:
        return new Traffic(log, 0, 0);
      case PING_PONG:
        return new Traffic(1, sizeBytes, sizeBytes);
      case WINDOW:
        // Averaged over the pair: the initiator streams the window, its partner sends the acknowledgement; the
        // partner may hold the whole window at once.
        return new Traffic((window + 2L) / 2, window * sizeBytes / 2, window * sizeBytes);
      case INC_NODE:
      case INC_SOCKET: {
        // From 64 KiB on, a pipelined schedule: per segment a ring reduce-scatter, a gather, a task, a broadcast.
        int segments = IncAllreduce.tasksPerAllreduce(sizeBytes);
        return segments == 1 ? new Traffic(4, 4 * sizeBytes, sizeBytes)
            : new Traffic(8L * segments, 4 * sizeBytes, (sizeBytes + segments - 1) / segments);
      }
      default:
        // A pipeline's transmission methods: the stage's collectives and the transfers between stages, at most a
        // ring Allreduce's messages with the whole activation in flight.
        return new Traffic(2 * (ranks - 1) + 4, 4 * sizeBytes, sizeBytes);
    }
  }

  /**
   * The buffers a rank allocates for a case of {@code w}: input, output and scratch, whole blocks where the collective
   * has them; a pipeline iteration holds every micro-batch's activation and gradient with the global AllReduce's
   * share in and out, and on average a server's activations of staging ({@code PipelineIteration.Regions}).
   */
  static long buffers(WorkloadSpec w, long ranks, long sizeBytes) {
    if (w.collective() == Collective.PIPELINE) {
      long global = w.pipeline().globalBytes(sizeBytes);
      long perDirection = global + 2L * w.pipeline().microBatches() * sizeBytes;
      return 2 * perDirection + (1L + w.pipeline().npusPerServer()) * sizeBytes;
    }
    return buffers(w.collective(), ranks, sizeBytes);
  }

  /**
   * One NPU's share of a pipeline iteration of activations of {@code sizeBytes}, whatever the transmission method:
   * forward and backward, each micro-batch's stage AllReduce (a ring among the server's NPUs) and its transfer to
   * the next stage, then a ring AllReduce of the global size over every NPU; the largest message a server's
   * activations gathered for a spliced transfer.
   */
  static Traffic pipelineTraffic(PipelineSpec pipeline, long ranks, long sizeBytes) {
    long n = pipeline.npusPerServer();
    long passes = 2L * pipeline.microBatches();
    long global = pipeline.globalBytes(sizeBytes);
    long messages = passes * (2 * (n - 1) + 2) + 2 * (ranks - 1);
    long bytes = passes * 3 * sizeBytes + 2 * global;
    return new Traffic(messages, bytes, n * sizeBytes);
  }

  /** The buffers a rank allocates for a case: input, output and scratch, whole blocks where the collective has them. */
  static long buffers(Collective collective, long ranks, long sizeBytes) {
    switch (collective) {
      case ALLGATHER:
      case REDUCE_SCATTER:
        return sizeBytes + 2 * ranks * sizeBytes;
      case ALLTOALL:
        return 3 * ranks * sizeBytes;
      case GATHER:
      case SCATTER:
        // The root holds every block; averaged over the ranks that is about one block more each.
        return 4 * sizeBytes;
      case BARRIER:
        return 0;
      default:
        return 3 * sizeBytes;
    }
  }

  /** The router of a router network (mesh, torus, group ring); null on a fabric that moves whole packets. */
  private static RouterSpec routerOf(ScenarioSpec spec, TopologySpec topology) {
    // devices.router has defaults on every topology: only a router network moves packets flit by flit.
    return topology.meanRouterHops() > 0 ? spec.devices().router() : null;
  }

  /** The ceiling of log2 n, 0 for n of 1 or less. */
  static int logCeil(long n) {
    return n <= 1 ? 0 : 64 - Long.numberOfLeadingZeros(n - 1);
  }
}
