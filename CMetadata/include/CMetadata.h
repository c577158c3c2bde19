// CMetadata.h
//
// Umbrella header of the CMetadata module. SwiftPM derives the module map from this
// header's name.

#ifndef CMETADATA_H
#define CMETADATA_H

#include "CMDDefines.h"
#include "CMDCacheStorage.h"
#include "CMDMetadataSections.h"
#include "CMDImageFile.h"
#include "CMDImageProbe.h"
#include "CMDProcessImages.h"
#include "CMDProcessHeap.h"
#include "CMDProcessControl.h"
#include "CMDProcessLeaks.h"
#include "CMDLoadedCode.h"
#include "CMDRuntime.h"
#include "CMDStack.h"

#endif  // CMETADATA_H
