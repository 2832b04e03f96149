package io.fabemu.archfixtures.node.actor;

import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

/** An actor of a device module: not allowed to use Pekko (every device runs in the engine's generic actor). */
public final class NodeShell {
  public static Behavior<String> create() {
    return Behaviors.empty();
  }
}
