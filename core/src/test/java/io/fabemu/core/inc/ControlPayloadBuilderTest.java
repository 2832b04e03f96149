package io.fabemu.core.inc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** {@link ControlPayload#builder()} and {@link ControlPayload#toBuilder()} set every field, each under its name. */
class ControlPayloadBuilderTest {

  @Test
  void shouldSetEveryFieldWhenBuiltByName() {
    ControlPayload built = ControlPayload.builder().masterNum(0x01).queryNotifyHop(0x82).supCommType(0x03)
        .supAllreduceOp(0x0405).supDataType(0x0607).supMaxDataSize(0x0100).globalGroupSize(0x0809)
        .localGroupSize(0x0A0B).trueCommId(0x0C0D0E0FL).avaGrpNum(0x10111213L).supMpiType(0x14).failCause(0x15)
        .dstRank(0x16171819L).tor1Ip(0x0A000001L).spineIp(0x0A000002L).tor2Ip(0x0A000003L).jobId(0x1A1B1C1DL)
        .cId(0xABCD).worldRank(0x1E1F2021L).srcLocalGroupSize(0x2223).torCount(0x2425).build();

    // WireSamples.CONTROL: the same distinct values, through the canonical constructor.
    assertThat(built).isEqualTo(WireSamples.CONTROL);
  }

  @Test
  void shouldDefaultEveryFieldToZeroWhenNotSet() {
    assertThat(ControlPayload.builder().build())
        .isEqualTo(new ControlPayload(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0));
  }

  @Test
  void shouldCopyEveryFieldWhenRebuiltFromToBuilder() {
    assertThat(WireSamples.CONTROL.toBuilder().build()).isEqualTo(WireSamples.CONTROL);
  }

  @Test
  void shouldChangeOnlyTheFieldsSetWhenCopiedThroughToBuilder() {
    ControlPayload copy = WireSamples.CONTROL.toBuilder().localGroupSize(7).dstRank(8L).build();

    assertThat(copy).isEqualTo(new ControlPayload(0x01, 0x82, 0x03, 0x0405, 0x0607, 0x0100, 0x0809, 7,
        0x0C0D0E0FL, 0x10111213L, 0x14, 0x15, 8L, 0x0A000001L, 0x0A000002L, 0x0A000003L, 0x1A1B1C1DL, 0xABCD,
        0x1E1F2021L, 0x2223, 0x2425));
  }

  @Test
  void shouldRefuseAFieldTooWideForTheWireWhenBuilt() {
    ControlPayload.Builder builder = ControlPayload.builder().cId(0x1_0000);

    assertThatThrownBy(builder::build).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("c_id");
  }
}
