// What a read or a program sequence works through: the die's ops and queues, the
// channel's topology, the DMA to the data buffer and the timeline. One record, so the
// two sequences are wired the same way and cannot drift apart.
#pragma once

namespace ufs {

class DieQueues;
class FlashDma;
class FlashTimeline;
class FlashTopology;
class OpPool;

struct DataPathParts {
  FlashTopology& topology;
  OpPool& pool;
  DieQueues& queues;
  FlashDma& dma;
  FlashTimeline& timeline;
};

}  // namespace ufs
