package io.fabemu.app.report;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One colour per algorithm, the same in every chart of every report (a run's, a sweep's, and {@code latency.svg} and
 * {@code latency.png}): a line, a box or a legend entry of {@code ring} is always the same blue, whichever charts it
 * appears in and in whatever order the workload lists it.
 *
 * <p>Contract: {@link #colour} is a pure function of the name. Each algorithm fabemu knows has a fixed colour from
 * {@link #KNOWN}; the algorithms that can run in one workload (the allreduce algorithms, the send/recv ones, the
 * pipeline's transmission methods) have colours of their own, while algorithms that never share a collective may share
 * a colour. Any other name (a mode of a command, an algorithm added later) takes one of {@link #OTHERS} by a hash of
 * its name ({@link String#hashCode}, which the language fixes), so it too keeps its colour from report to report.
 */
public final class Palette {

  /** The known algorithms' colours, by the name the scenario uses for them. */
  static final Map<String, String> KNOWN = known();

  /** The colours a name outside {@link #KNOWN} may take. */
  static final List<String> OTHERS = List.of("#2166ac", "#d6604d", "#1b9e77", "#7570b3", "#e6ab02", "#66a61e",
      "#a6761d", "#e7298a", "#666666", "#17becf");

  private Palette() {}

  /** The colour of the algorithm named {@code algorithm}, as {@code #rrggbb}. */
  public static String colour(String algorithm) {
    String known = KNOWN.get(algorithm);
    return known != null ? known : OTHERS.get(Math.floorMod(algorithm.hashCode(), OTHERS.size()));
  }

  private static Map<String, String> known() {
    Map<String, String> m = new LinkedHashMap<>();
    // Allreduce (and the collectives sharing these names): every one of these can run in one workload.
    m.put("ring", "#2166ac");
    m.put("recursive-doubling", "#d6604d");
    m.put("rabenseifner", "#1b9e77");
    m.put("binomial", "#7570b3");
    m.put("tree", "#8c564b");
    m.put("auto", "#e6ab02");
    m.put("inc-node", "#e7298a");
    m.put("inc-socket", "#66a61e");
    m.put("dimension-ring", "#a6761d");
    m.put("multi-ring", "#17becf");
    m.put("single-ring", "#bcbd22");
    m.put("bidirectional-ring", "#ff7f0e");
    m.put("line", "#9467bd");
    m.put("line-both-ends", "#393b79");
    // Other collectives' own algorithms, beside ring, auto and binomial above.
    m.put("linear", "#666666");
    m.put("recursive-halving", "#66a61e");
    m.put("pairwise", "#7570b3");
    m.put("dissemination", "#d6604d");
    m.put("ping-pong", "#d6604d");
    m.put("window", "#1b9e77");
    // The pipeline's transmission methods (with auto).
    m.put("send-broadcast", "#2166ac");
    m.put("p2p-bus", "#d6604d");
    m.put("allgather-send-scatter", "#1b9e77");
    m.put("switch-send", "#7570b3");
    return java.util.Collections.unmodifiableMap(m);
  }
}
