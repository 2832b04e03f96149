package io.fabemu.archfixtures.core.bad;

import org.apache.pekko.actor.typed.ActorRef;

/** Plain logic importing Pekko (the violation). */
public final class PekkoInCore {
  public ActorRef<String> target;
}
