//===- ArraySite.cpp - Names of arrays for diagnostics --------------------===//

#include "VRIR/Dialect/VRIR/IR/VRIR.h"

#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;

/// The first name a location carries, if any.
static std::optional<std::string> getLocationName(Location loc) {
  if (auto name = dyn_cast<NameLoc>(loc))
    return name.getName().str();
  if (auto fused = dyn_cast<FusedLoc>(loc))
    for (Location inner : fused.getLocations())
      if (auto found = getLocationName(inner))
        return found;
  if (auto callSite = dyn_cast<CallSiteLoc>(loc))
    return getLocationName(callSite.getCallee());
  return std::nullopt;
}

/// "file:line:col" of the first file location in `loc`.
static std::optional<std::string> getFilePosition(Location loc) {
  if (auto file = dyn_cast<FileLineColLoc>(loc))
    return (file.getFilename().getValue() + ":" + Twine(file.getLine()) + ":" +
            Twine(file.getColumn()))
        .str();
  if (auto name = dyn_cast<NameLoc>(loc))
    return getFilePosition(name.getChildLoc());
  if (auto fused = dyn_cast<FusedLoc>(loc))
    for (Location inner : fused.getLocations())
      if (auto found = getFilePosition(inner))
        return found;
  if (auto callSite = dyn_cast<CallSiteLoc>(loc))
    return getFilePosition(callSite.getCallee());
  return std::nullopt;
}

std::string mlir::vrir::describeArray(Value array) {
  if (auto found = getLocationName(array.getLoc()))
    return "array '" + *found + "'";
  if (auto arg = dyn_cast<BlockArgument>(array);
      arg && arg.getOwner()->isEntryBlock()) {
    if (auto function = dyn_cast_or_null<FunctionOpInterface>(
            arg.getOwner()->getParentOp())) {
      // An outlined region's argument says what it was in the caller.
      if (auto described = function.getArgAttrOfType<StringAttr>(
              arg.getArgNumber(), kArrayDescriptionAttrName))
        return described.str();
      return ("array argument #" + Twine(arg.getArgNumber())).str();
    }
  }
  if (auto position = getFilePosition(array.getLoc()))
    return "array created at " + *position;
  return "array";
}

std::string mlir::vrir::describeArraySite(Value array, Location accessLoc) {
  std::string text = describeArray(array);
  if (auto position = getFilePosition(accessLoc))
    text += ", accessed at " + *position;
  return text;
}
