// ConformanceIndex.swift
//
// The images of one set of loaded images, listed on first use. One protocol's records are in its ProtocolIndex; one type's are found by
// `TypeMetadata.conformances`.

/// The images of a set of loaded images.
final class ConformanceIndex: CacheEntry {
    /// The images, in registration order.
    private let imageList = LazyValue<ImagesBox>()
    /// The number of images.
    let imageCount: Int
    /// The table key: the image count.
    var tableKey: UInt { UInt(imageCount) }

    init(imageCount: Int) {
        self.imageCount = imageCount
    }

    /// The images of this generation, listed on first use. Images are only ever appended to
    /// the runtime's list, so its first `imageCount` entries are this generation's.
    var images: [Image] {
        imageList.value { Array(LoadedImages.images(Image.init).prefix(imageCount)) }
    }
}
