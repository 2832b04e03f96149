package io.fabemu.traces;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabemu.traces.proto.CollectiveCommType;
import org.junit.jupiter.api.Test;

class TraceCommTypeTest {

  @Test
  void shouldNumberEachCollectiveAsChakraDoes() {
    for (TraceCommType type : TraceCommType.values()) {
      assertThat(type.chakraNumber()).isEqualTo(CollectiveCommType.valueOf(type.name()).getNumber());
      assertThat(TraceCommType.ofChakraNumber(type.chakraNumber())).isEqualTo(type);
    }
    assertThat(TraceCommType.values()).hasSize(CollectiveCommType.values().length - 1); // less UNRECOGNIZED
  }

  @Test
  void shouldFindNoCollectiveForAnUnknownNumber() {
    assertThat(TraceCommType.ofChakraNumber(10)).isNull();
    assertThat(TraceCommType.ofChakraNumber(-1)).isNull();
  }
}
