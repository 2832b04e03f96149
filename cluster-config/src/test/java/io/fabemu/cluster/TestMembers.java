package io.fabemu.cluster;

import com.typesafe.config.Config;
import java.util.ArrayList;
import java.util.List;

/** A cluster of members in this JVM, each serving distributed runs, for the distribution tests. */
final class TestMembers {
  private TestMembers() {}

  /** Starts {@code count} members on 127.0.0.1 with {@code config}; the first is the seed the others join. */
  static List<EmbeddedCluster> start(Config config, int count) {
    List<EmbeddedCluster> members = new ArrayList<>();
    EmbeddedCluster first = EmbeddedCluster.start(config);
    members.add(first);
    for (int i = 1; i < count; i++) {
      members.add(EmbeddedCluster.join(config, first.address()));
    }
    members.forEach(ScenarioRunner::serveAsMember);
    return List.copyOf(members);
  }

  /** Stops the members, the seed last. */
  static void stop(List<EmbeddedCluster> members) {
    for (int i = members.size() - 1; i >= 0; i--) {
      members.get(i).close();
    }
  }
}
