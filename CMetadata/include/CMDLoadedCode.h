// CMDLoadedCode.h
//
// The allow-list of code this package may call through a pointer read from an image: the
// executable segments of the images the dynamic loader has loaded. A pointer read from a
// record (a metadata access function) is called only when it lies in one; anything else, an
// image read from a file (`CMDImageFile.h`) included, is refused (the DocC article
// "Understanding the ABI layer", "Calling into images").

#ifndef CMD_LOADED_CODE_H
#define CMD_LOADED_CODE_H

#include "CMDDefines.h"

CMD_ASSUME_NONNULL_BEGIN

/// Whether an address lies in an executable segment of an image the dynamic loader has loaded.
///
/// The executable ranges (`PT_LOAD` segments with `PF_X`, from `dl_iterate_phdr`; `__TEXT` of
/// each dyld image on Apple platforms) are kept in an immutable, sorted snapshot published once
/// and searched without a lock or an allocation. An address the snapshot does not hold
/// rebuilds it only when the runtime has registered a Swift image since the last build, so a
/// refused pointer costs one search, not a walk of the loader's list.
/// - Parameter address: Any address.
/// - Returns: Whether code there may be called.
CMD_EXTERN bool cmd_isLoadedCode(const void *_Nullable address);

CMD_ASSUME_NONNULL_END

#endif  // CMD_LOADED_CODE_H
