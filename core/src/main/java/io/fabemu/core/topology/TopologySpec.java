package io.fabemu.core.topology;

/**
 * Which fabric to build.
 *
 * @param kind        the builder
 * @param hosts       number of hosts (compute nodes)
 * @param hostsPerTor leaf-spine only: hosts under each top-of-rack switch (the last TOR may have fewer)
 * @param spines      leaf-spine only: number of spine switches (every TOR links to every spine)
 * @param hostLink    leaf-spine: host-TOR links
 * @param spineLink   leaf-spine: TOR-spine links
 * @param link        line, ring and full-mesh: host-to-host links (the NICs forward transit traffic)
 */
public record TopologySpec(TopologyKind kind, int hosts, int hostsPerTor, int spines, LinkSpec hostLink,
                           LinkSpec spineLink, LinkSpec link) {

  public enum TopologyKind {
    LEAF_SPINE("leaf-spine"), LINE("line"), RING("ring"), FULL_MESH("full-mesh");

    private final String configName;

    TopologyKind(String configName) {
      this.configName = configName;
    }

    public String configName() {
      return configName;
    }

    public static TopologyKind fromConfigName(String name) {
      for (TopologyKind k : values()) {
        if (k.configName.equals(name)) return k;
      }
      return null;
    }
  }
}
