package io.fabemu.k8s;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The /dev/shm formula against fabemu's settings and against what was measured (AeronShm's documentation). */
class AeronShmTest {
  private static final long MIB = 1L << 20;

  @Test
  void fabemusSettingsGiveSixteenMebibyteTermsOnTwoStreams() {
    Config config = AeronShm.memberConfig(Map.of());
    assertThat(AeronShm.termLengthBytes(config)).isEqualTo(16 * MIB);
    assertThat(AeronShm.streams(config)).isEqualTo(2);
    // Aeron's layout: 3 terms and one page of metadata.
    assertThat(AeronShm.logLengthBytes(config)).isEqualTo(48 * MIB + 4096);
  }

  @Test
  void theFormulaMatchesTheMeasuredMembers() {
    Config config = AeronShm.memberConfig(Map.of());
    // Measured: 585 MiB per member with 3 peers, 201 MiB with 1 (du -sm rounds up).
    assertThat(AeronShm.requiredBytes(config, 3)).isEqualTo(9 * MIB + 12 * (48 * MIB + 4096)).isEqualTo(613_466_112L);
    assertThat(AeronShm.mib(AeronShm.requiredBytes(config, 3))).isEqualTo("585.05 MiB");
    assertThat(AeronShm.mib(AeronShm.requiredBytes(config, 1))).isEqualTo("201.02 MiB");
    assertThat(AeronShm.requiredBytes(config, 0)).isEqualTo(AeronShm.DRIVER_FILES_BYTES);
    // The large overlay: 30 peers.
    assertThat(AeronShm.mib(AeronShm.requiredBytes(config, 30))).isEqualTo("5769.47 MiB");
  }

  @Test
  void jvmOptionsChangeTheTermAsTheyDoInFabemu() {
    assertThat(AeronShm.termLengthBytes(AeronShm.memberConfig(Map.of("aeron.term.buffer.length", "33554432"))))
        .isEqualTo(32 * MIB);
    assertThat(AeronShm.termLengthBytes(AeronShm.memberConfig(Map.of("fabemu.aeron.term-buffer-length", "64 MiB"))))
        .isEqualTo(64 * MIB);
    // Aeron's own property wins over fabemu's, as EmbeddedCluster sets it only when absent.
    assertThat(AeronShm.termLengthBytes(AeronShm.memberConfig(Map.of("fabemu.aeron.term-buffer-length", "64 MiB",
        "aeron.term.buffer.length", "33554432")))).isEqualTo(32 * MIB);
  }

  @Test
  void largeMessageDestinationsAddAThirdStream() {
    Config config = ConfigFactory.parseString("pekko.remote.artery.large-message-destinations = [\"/user/big\"]")
        .withFallback(AeronShm.memberConfig(Map.of()));
    assertThat(AeronShm.streams(config)).isEqualTo(3);
    assertThat(AeronShm.requiredBytes(config, 1)).isEqualTo(9 * MIB + 6 * (48 * MIB + 4096));
  }

  @Test
  void negativePeersAreRefused() {
    assertThatThrownBy(() -> AeronShm.requiredBytes(AeronShm.memberConfig(Map.of()), -1))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("peers must be at least 0, not -1");
  }
}
