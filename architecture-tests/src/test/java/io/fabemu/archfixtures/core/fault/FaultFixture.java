package io.fabemu.archfixtures.core.fault;

import io.fabemu.archfixtures.core.protocol.ProtocolNamingACollective;

/** A feature of core: it may use the kernel (allowed), which must not use it back. */
public final class FaultFixture {
  public ProtocolNamingACollective kernel;
}
