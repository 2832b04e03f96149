package io.fabemu.core.topology;

/**
 * A ring of hosts (a line closed into a cycle), which forward transit traffic themselves; see
 * {@link Topologies#ring}.
 *
 * @param hosts number of hosts (compute nodes)
 * @param link  host-to-host links
 */
public record RingSpec(int hosts, LinkSpec link) implements TopologySpec {

  public static final String CONFIG_NAME = "ring";

  @Override
  public String configName() {
    return CONFIG_NAME;
  }

  @Override
  public Topology build() {
    return Topologies.ring(hosts, link);
  }
}
