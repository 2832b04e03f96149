package io.fabemu.core.topology;

/**
 * A line of hosts (a chain), which forward transit traffic themselves; see {@link Topologies#line}.
 *
 * @param hosts number of hosts (compute nodes)
 * @param link  host-to-host links
 */
public record LineSpec(int hosts, LinkSpec link) implements TopologySpec {

  public static final String CONFIG_NAME = "line";

  @Override
  public String configName() {
    return CONFIG_NAME;
  }

  @Override
  public Topology build() {
    return Topologies.line(hosts, link);
  }
}
