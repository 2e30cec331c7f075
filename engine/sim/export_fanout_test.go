package sim

// ItemPerDelivery makes every watch delivery of the runs made after it an
// item of the agenda of its own (on), or gathers those of one fan-out into
// one item (off).
func ItemPerDelivery(on bool) { itemPerDelivery = on }
