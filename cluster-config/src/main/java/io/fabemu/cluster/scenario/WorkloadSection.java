package io.fabemu.cluster.scenario;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigList;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueFactory;
import com.typesafe.config.ConfigValueType;
import io.fabemu.collectives.Algorithm;
import io.fabemu.collectives.BufferLayout;
import io.fabemu.collectives.Collective;
import io.fabemu.collectives.PipelineSpec;
import io.fabemu.collectives.ProtocolSpec;
import io.fabemu.collectives.Schedules;
import io.fabemu.collectives.WorkloadSpec;
import io.fabemu.core.data.DataType;
import io.fabemu.core.data.ReduceOp;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The {@code workload} section: the collective, its algorithms, the buffer layouts to measure
 * ({@code buffers = [out-of-place, in-place]}), datatype and op, the message sizes (an explicit list or the doublings
 * from min-size to max-size, whichever form the echo then holds), the counts, and the rules between them and the
 * host count.
 */
final class WorkloadSection implements ScenarioSection {

  /** Values of {@code workload.payload}, in the order messages list them. */
  private static final List<String> PAYLOAD_NAMES = List.of("real", "synthetic");

  @Override
  public void read(ScenarioReader in, ScenarioDraft draft) {
    int hosts = draft.topology().spec().hosts();
    Collective collective = in.enumValue("workload.collective", Collective::fromConfigName,
        Arrays.stream(Collective.values()).map(Collective::configName).toList());
    List<Algorithm> algorithms = readAlgorithms(in, collective);
    List<BufferLayout> buffers = readBuffers(in);
    DataType dataType = in.enumValue("workload.datatype", DataType::fromConfigName,
        DataType.inNamingOrder().stream().map(DataType::configName).toList());
    ReduceOp op = in.enumValue("workload.op", ReduceOp::fromConfigName,
        Arrays.stream(ReduceOp.values()).map(ReduceOp::configName).toList());
    if (collective.reduces() && !op.isDefinedOn(dataType)) {
      throw in.error("workload.op", op.configName() + " is not defined on " + dataType.configName()
          + " (logical and bitwise ops need an integer datatype: "
          + DataType.inNamingOrder().stream().filter(t -> !t.isFloatingPoint()).map(DataType::configName)
              .collect(Collectors.joining(", ")) + ")");
    }
    int elementBytes = Schedules.elementBytes(collective, dataType, op);
    String elementName = element(collective, dataType, op);

    Config echo = draft.echo();
    List<Long> sizes;
    boolean explicit = in.has("workload.sizes");
    boolean ranged = in.has("workload.min-size") || in.has("workload.max-size");
    if (explicit && ranged) {
      throw in.error("workload.sizes", "give either sizes or min-size/max-size, not both");
    }
    if (explicit) {
      sizes = readSizeList(in, collective, elementBytes, elementName);
    } else if (collective == Collective.BARRIER && !ranged) {
      sizes = List.of(0L);
      echo = echo.withValue("workload.sizes", ConfigValueFactory.fromIterable(List.of("0 B")));
    } else {
      // A barrier's only size is 0 B (checkedSize refuses others), so its defaults are 0 B too.
      boolean barrier = collective == Collective.BARRIER;
      long min = in.has("workload.min-size")
          ? checkedSize(in, "workload.min-size", in.value("workload.min-size"), collective, elementBytes, elementName)
          : barrier ? 0 : elementBytes;
      long max = in.has("workload.max-size")
          ? checkedSize(in, "workload.max-size", in.value("workload.max-size"), collective, 0, elementName)
          : barrier ? min : Math.max(ScenarioLoader.DEFAULT_MAX_SIZE_BYTES, min);
      if (max < min) {
        throw in.error("workload.max-size", "'" + ScenarioReader.text(in.value("workload.max-size"))
            + "' is smaller than min-size (" + Quantities.formatBytes(min) + ")");
      }
      sizes = new ArrayList<>();
      // Like osu -m MIN:MAX: min, 2 min, 4 min, ... while not above max; from 0 B (send/recv), one element next.
      for (long s = min; s <= max; s = s == 0 ? elementBytes : s * 2) {
        sizes.add(s);
        if (s > Long.MAX_VALUE / 2) break;
      }
      echo = echo.withValue("workload.min-size", ConfigValueFactory.fromAnyRef(Quantities.formatBytes(min)))
          .withValue("workload.max-size", ConfigValueFactory.fromAnyRef(Quantities.formatBytes(max)));
    }

    int iterations = in.intValue("workload.iterations", 1, Integer.MAX_VALUE);
    int warmup = in.intValue("workload.warmup", 0, Integer.MAX_VALUE);
    int ppn = in.intValue("workload.ppn", 1, ScenarioLoader.MAX_PPN);
    long ranks = (long) hosts * ppn;
    if (ranks > ScenarioLoader.MAX_RANKS) {
      throw in.error("workload.ppn", hosts + " hosts x " + ppn + " ppn = " + ranks
          + " ranks is above the limit of " + ScenarioLoader.MAX_RANKS + " ranks");
    }
    if (ranks < 2) {
      throw in.error("topology.hosts", "the world has " + ranks + " rank (hosts " + hosts + " x ppn "
          + ppn + "); a collective needs at least 2");
    }
    checkBlockBuffers(in, collective, sizes, elementBytes, explicit, (int) ranks);
    boolean hierarchical = in.boolValue("workload.hierarchical");
    if (hierarchical && collective != Collective.ALLREDUCE) {
      throw in.error("workload.hierarchical", "only allreduce has a hierarchical form (collective is "
          + collective.configName() + ")");
    }
    int root = in.intValue("workload.root", 0, Integer.MAX_VALUE);
    if (root >= ranks) {
      throw in.error("workload.root", root + " is not a rank (ranks are 0.." + (ranks - 1) + ")");
    }
    boolean synthetic = in.enumValue("workload.payload", WorkloadSection::syntheticPayload, PAYLOAD_NAMES);
    int window = in.intValue("workload.window", 1, ScenarioLoader.MAX_WINDOW);
    // A profile's setting (GPU servers): only the flat ring allreduce uses it, every other workload ignores it.
    int channels = in.intValue("workload.channels", 1, WorkloadSpec.MAX_CHANNELS);
    // A profile's setting too: the protocol every case's messages travel by, or auto (chosen per case).
    ProtocolSpec protocols = ProtocolSection.spec(in, draft.topology().spec());
    PipelineSpec pipeline = collective == Collective.PIPELINE
        ? PipelineSection.spec(in, draft.topology().spec(), algorithms, sizes, elementBytes, explicit) : null;
    WorkloadSpec workload = WorkloadSpec.builder(collective, List.copyOf(algorithms), List.copyOf(sizes))
        .iterations(iterations).warmup(warmup).ppn(ppn).dataType(dataType).op(op).hierarchical(hierarchical).root(root)
        .syntheticPayload(synthetic).buffers(buffers).window(window).pipeline(pipeline).channels(channels)
        .protocols(protocols).build();
    if (pipeline != null) PipelineSection.checkWorkload(in, workload);
    draft.workload(workload);
    draft.echo(echo);
  }

  private static List<Algorithm> readAlgorithms(ScenarioReader in, Collective collective) {
    String path = "workload.algorithms";
    ConfigValue v = in.value(path);
    List<ConfigValue> items;
    List<String> displayPaths = new ArrayList<>();
    if (v instanceof ConfigList list) {
      items = list;
      for (int i = 0; i < list.size(); i++) displayPaths.add(path + "[" + i + "]");
    } else if (v.valueType() == ConfigValueType.STRING) {
      items = List.of(v);
      displayPaths.add(path);
    } else {
      throw in.error(path, v, "expected a list of algorithms, got " + ScenarioReader.describe(v));
    }
    if (items.isEmpty()) throw in.error(path, v, "must list at least one algorithm");
    // A name that is no algorithm at all is refused with the collective's algorithms only (and the closest of them).
    List<String> names = Algorithm.validFor(collective).stream().map(Algorithm::configName).toList();
    String valid = Algorithm.namesFor(collective);
    Set<Algorithm> seen = new LinkedHashSet<>();
    for (int i = 0; i < items.size(); i++) {
      ConfigValue item = items.get(i);
      String itemPath = displayPaths.get(i);
      Algorithm a = in.enumOf(itemPath, item, Algorithm::fromConfigName, names);
      if (!Algorithm.validFor(collective).contains(a)) {
        throw in.error(itemPath, item, "'" + a.configName() + "' is not an algorithm of " + collective.configName()
            + " (use " + valid + ")");
      }
      if (!seen.add(a)) throw in.error(itemPath, item, "'" + a.configName() + "' is listed twice");
    }
    return new ArrayList<>(seen);
  }

  /**
   * {@code workload.buffers}: a non-empty list of buffer layouts ({@code out-of-place}, {@code in-place}), each at
   * most once, in the order the cases run them.
   */
  private static List<BufferLayout> readBuffers(ScenarioReader in) {
    String path = "workload.buffers";
    ConfigValue v = in.value(path);
    if (!(v instanceof ConfigList list)) {
      throw in.error(path, v, "expected a list such as [out-of-place, in-place], got " + ScenarioReader.describe(v));
    }
    if (list.isEmpty()) throw in.error(path, v, "must list at least one buffer layout");
    List<String> names = Arrays.stream(BufferLayout.values()).map(BufferLayout::configName).toList();
    List<BufferLayout> layouts = new ArrayList<>();
    for (int i = 0; i < list.size(); i++) {
      String itemPath = path + "[" + i + "]";
      BufferLayout b = in.enumOf(itemPath, list.get(i), BufferLayout::fromConfigName, names);
      if (layouts.contains(b)) {
        throw in.error(itemPath, list.get(i), "'" + b.configName() + "' is listed twice");
      }
      layouts.add(b);
    }
    return List.copyOf(layouts);
  }

  private static List<Long> readSizeList(ScenarioReader in, Collective collective, int elementBytes,
                                         String elementName) {
    String path = "workload.sizes";
    ConfigValue v = in.value(path);
    if (!(v instanceof ConfigList list)) {
      throw in.error(path, v, "expected a list of sizes such as [4 B, 1 MiB], got " + ScenarioReader.describe(v));
    }
    if (list.isEmpty()) throw in.error(path, v, "must list at least one size");
    List<Long> sizes = new ArrayList<>();
    for (int i = 0; i < list.size(); i++) {
      String itemPath = path + "[" + i + "]";
      long s = checkedSize(in, itemPath, list.get(i), collective, elementBytes, elementName);
      if (sizes.contains(s)) {
        throw in.error(itemPath, list.get(i), "'" + ScenarioReader.text(list.get(i)) + "' is listed twice");
      }
      sizes.add(s);
    }
    return sizes;
  }

  /**
   * A message size: a multiple of the element, at least one element, at most 1 GiB; for a barrier, which moves no
   * data, exactly 0 B; for send/recv also 0 B (a message without payload, which still pays its headers and latency,
   * as osu_latency's first row). An {@code elementBytes} of 0 skips the element rules (max-size needs none).
   */
  private static long checkedSize(ScenarioReader in, String path, ConfigValue v, Collective collective,
                                  int elementBytes, String element) {
    long s = in.sizeBytes(path, v, 0, ScenarioLoader.MAX_SIZE_BYTES);
    if (collective == Collective.BARRIER) {
      if (s != 0) throw in.error(path, v, "'" + ScenarioReader.text(v) + "' is not 0 B: a barrier moves no data");
      return s;
    }
    if (elementBytes == 0) return s;
    if (s % elementBytes != 0) {
      throw in.error(path, v, "'" + ScenarioReader.text(v) + "' is not a multiple of the " + element);
    }
    if (s == 0 && collective != Collective.SENDRECV) {
      throw in.error(path, v, "'" + ScenarioReader.text(v) + "' is less than one element (the " + element + ")");
    }
    return s;
  }

  /**
   * Collectives whose buffers hold one block per rank ({@link Collective#oneBlockPerRank()}): a block of every
   * size times the world must fit a Java array.
   */
  private static void checkBlockBuffers(ScenarioReader in, Collective collective, List<Long> sizes,
                                        int elementBytes, boolean explicit, int ranks) {
    if (!collective.oneBlockPerRank()) return;
    for (int i = 0; i < sizes.size(); i++) {
      long elements = sizes.get(i) / elementBytes * ranks;
      if (elements > Schedules.MAX_BUFFER_ELEMENTS) {
        String path = explicit ? "workload.sizes[" + i + "]" : "workload.max-size";
        ConfigValue v = explicit ? ((ConfigList) in.value("workload.sizes")).get(i) : null;
        String reason = Quantities.formatBytes(sizes.get(i)) + " per rank on " + ranks + " ranks needs a buffer of "
            + elements + " elements for " + collective.configName() + ", more than a Java array holds ("
            + Schedules.MAX_BUFFER_ELEMENTS + ")";
        throw v == null ? in.error(path, reason) : in.error(path, v, reason);
      }
    }
  }

  /** For messages: {@code float32 element size (4 B)}, {@code float32 maxloc element size (8 B: ...)}. */
  static String element(Collective collective, DataType type, ReduceOp op) {
    int bytes = Schedules.elementBytes(collective, type, op);
    return Schedules.carriesLocation(collective, op)
        ? type.configName() + " " + op.configName() + " element size (" + Quantities.formatBytes(bytes) + ": "
            + type.sizeBytes() + " B value + " + (bytes - type.sizeBytes()) + " B location)"
        : type.configName() + " element size (" + Quantities.formatBytes(bytes) + ")";
  }

  /** {@code workload.payload}: true for {@code synthetic} (sizes only), false for {@code real}, null otherwise. */
  private static Boolean syntheticPayload(String name) {
    return switch (name) {
      case "real" -> Boolean.FALSE;
      case "synthetic" -> Boolean.TRUE;
      default -> null;
    };
  }
}
