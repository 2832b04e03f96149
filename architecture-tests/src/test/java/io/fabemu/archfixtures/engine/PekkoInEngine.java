package io.fabemu.archfixtures.engine;

import org.apache.pekko.actor.typed.ActorRef;

/** The engine may use Pekko (allowed). */
public final class PekkoInEngine {
  public ActorRef<String> coordinator;
}
