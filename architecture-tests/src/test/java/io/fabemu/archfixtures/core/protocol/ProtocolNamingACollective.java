package io.fabemu.archfixtures.core.protocol;

import io.fabemu.archfixtures.collectives.CollectiveFixture;

/** Core naming a collective class (the violation). */
public final class ProtocolNamingACollective {
  public CollectiveFixture collective;
}
