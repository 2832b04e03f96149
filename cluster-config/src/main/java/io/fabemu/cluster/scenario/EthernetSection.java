package io.fabemu.cluster.scenario;

import com.typesafe.config.ConfigList;
import io.fabemu.core.ethernet.EthernetFrame;
import io.fabemu.core.ethernet.EthernetSpec;
import io.fabemu.core.ethernet.FramePayloads;
import io.fabemu.core.ethernet.MacAddress;
import io.fabemu.core.router.RouterSpec;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code ethernet} section: the I/O nodes of a router network and the external Ethernet, read into an
 * {@link EthernetSpec}.
 *
 * <p>Contract: only a section the user wrote counts; without one the draft has none and the echo leaves
 * {@code ethernet} out, so every scenario written before the section existed loads and echoes as it did. With one,
 * the keys left out take their defaults and the checks run in this order: the topology must be a router network
 * running a workload (no {@code traffic} section); {@code io-nodes} lists at least one node of it, each once;
 * {@code standby} lists some of them, each once, leaving at least one enabled; then the cable, the hosts, the
 * corruption probability and the traffic, each in its range.
 */
final class EthernetSection implements ScenarioSection {
  private static final String PATH = "ethernet";
  private static final String IO_NODES = PATH + ".io-nodes";
  private static final String STANDBY = PATH + ".standby";
  private static final String TRAFFIC = PATH + ".traffic";
  /** Most frames one source sends. */
  static final int MAX_FRAMES = 1_000_000;
  /** Most external hosts. */
  static final int MAX_EXTERNAL_HOSTS = 1 << 16;

  @Override
  public void read(ScenarioReader in, ScenarioDraft draft) {
    if (!in.writtenByUser(PATH)) {
      draft.echo(draft.echo().withoutPath(PATH));
      return;
    }
    CheckedTopology topology = draft.topology();
    if (!topology.routerNetwork()) {
      throw in.error(PATH, "I/O nodes need a router network (topology.kind " + TopologySection.routerNetworkKinds()
          + "); this topology is " + topology.spec().configName() + ", whose nodes have no routers to carry an "
          + "Ethernet NIC");
    }
    if (draft.traffic() != null) {
      throw in.error(PATH, "I/O nodes run beside a workload, not synthetic traffic: leave out the traffic section");
    }
    if (topology.topology().hostCount() > MacAddress.NUMBERED) {
      throw in.error(PATH, "I/O nodes need a MAC per node, and at most " + MacAddress.NUMBERED + " are numbered; "
          + "this topology has " + topology.topology().hostCount() + " nodes");
    }
    List<Integer> ioNodes = nodes(in, topology, IO_NODES, null);
    if (ioNodes.isEmpty()) throw in.error(IO_NODES, "must name at least one node, e.g. [\"host0\"]");
    List<Integer> standby = nodes(in, topology, STANDBY, ioNodes);
    if (standby.size() == ioNodes.size()) {
      throw in.error(STANDBY, "lists every I/O node: at least one Ethernet NIC must start enabled");
    }
    long rate = in.rateBitsPerSecond(PATH + ".link.rate", true);
    long latency = in.durationPs(PATH + ".link.latency", true);
    int hosts = in.intValue(PATH + ".external-hosts", 1, MAX_EXTERNAL_HOSTS);
    double corrupt = in.doubleValue(PATH + ".corrupt");
    if (!(corrupt >= 0 && corrupt < 1)) {
      throw in.error(PATH + ".corrupt", "expected a probability in [0, 1), got " + corrupt);
    }
    int inbound = in.intValue(TRAFFIC + ".inbound-frames", 0, MAX_FRAMES);
    int outbound = in.intValue(TRAFFIC + ".outbound-frames", 0, MAX_FRAMES);
    int unknownEvery = in.intValue(TRAFFIC + ".unknown-mac-every", 0, MAX_FRAMES);
    int frameBytes = in.intValue(TRAFFIC + ".frame-bytes", FramePayloads.MIN_BYTES, EthernetFrame.MAX_PAYLOAD_BYTES);
    RouterSpec router = draft.router();
    long frameFlits = router.flitsOf(EthernetFrame.wireBytes(frameBytes) + (long) draft.nic().headerBytes());
    if (router.switching().needsWholePacketSpace() && frameFlits > router.bufferDepthFlits()) {
      throw in.error(TRAFFIC + ".frame-bytes", "a frame of " + frameBytes + " B of payload travels as " + frameFlits
          + " flits with its NIC header, more than a router buffer of " + router.bufferDepthFlits() + " flits, which "
          + router.switching().configName() + " needs it to fit in (lower frame-bytes, or raise buffer-depth or "
          + "flit-bytes)");
    }
    long interval = in.durationPs(TRAFFIC + ".interval", true);
    long start = in.durationPs(TRAFFIC + ".start", false);
    draft.ethernet(new EthernetSpec(ioNodes, standby, rate, latency, hosts, corrupt, inbound, outbound, unknownEvery,
        frameBytes, interval, start));
  }

  /**
   * The nodes {@code path} names, in ascending order; each a host of the topology, named once, and (with
   * {@code among}) one of those.
   */
  private static List<Integer> nodes(ScenarioReader in, CheckedTopology topology, String path, List<Integer> among) {
    ConfigList list = in.list(path, "[\"host0\", \"host63\"]");
    List<String> names = in.stringList(path);
    List<Integer> nodes = new ArrayList<>();
    for (int i = 0; i < names.size(); i++) {
      String name = names.get(i);
      String itemPath = path + "[" + i + "]";
      int vertex = topology.vertex(name);
      if (vertex < 0 || !topology.isHost(vertex)) {
        throw in.error(itemPath, list.get(i), "'" + name + "' is not a node of this topology ("
            + topology.hostNames() + ")");
      }
      if (nodes.contains(vertex)) throw in.error(itemPath, list.get(i), "'" + name + "' is listed twice");
      if (among != null && !among.contains(vertex)) {
        throw in.error(itemPath, list.get(i), "'" + name + "' is not one of the io-nodes");
      }
      nodes.add(vertex);
    }
    nodes.sort(null);
    return nodes;
  }
}
