package io.fabemu.archfixtures.node.actor;

import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

/** An actor shell may use Pekko (allowed). */
public final class NodeShell {
  public static Behavior<String> create() {
    return Behaviors.empty();
  }
}
