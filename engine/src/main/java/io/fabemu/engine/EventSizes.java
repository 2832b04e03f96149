package io.fabemu.engine;

import io.fabemu.core.data.DataBuffer;
import io.fabemu.core.device.DeviceProtocol;
import io.fabemu.core.device.Message;
import io.fabemu.core.engine.Event;

/**
 * A cheap upper estimate of an event's serialized size, to cut cross-member batches below Artery's frame size
 * without serializing twice. Only the data arrays matter; everything else is a small constant.
 */
final class EventSizes {
  /** Event fields, payload headers and Kryo's framing: generous. */
  private static final long FIXED_BYTES = 160L;

  private EventSizes() {}

  static long estimate(Event event) {
    Object payload = event.payload();
    if (payload instanceof DeviceProtocol.Packet packet) {
      return FIXED_BYTES + bytes(packet.slice());
    }
    if (payload instanceof DeviceProtocol.NicSend send) {
      return FIXED_BYTES + bytes(send.message());
    }
    if (payload instanceof DeviceProtocol.NicDeliver deliver) {
      return FIXED_BYTES + bytes(deliver.message());
    }
    if (payload instanceof DeviceProtocol.LocalDelivery delivery) {
      return FIXED_BYTES + bytes(delivery.message());
    }
    return FIXED_BYTES;
  }

  private static long bytes(Message message) {
    return message == null ? 0L : bytes(message.data());
  }

  private static long bytes(DataBuffer data) {
    if (data == null) {
      return 0L;
    }
    return data.sizeBytes() + (data.hasLocations() ? 4L * data.count() : 0L);
  }
}
